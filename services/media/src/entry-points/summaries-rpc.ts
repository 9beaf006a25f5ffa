import type { DataSource } from 'typeorm';
import { Rpc } from '@postbus/contracts';
import type { RpcServer } from '@postbus/bus';
import { getStorageUsage } from '../library/storage-usage.query';

/** The figure media contributes to the billing summary. */
export function registerSummariesRpc(rpc: RpcServer, ds: DataSource): void {
  rpc.handle(Rpc.mediaStorageUsage, (_input, { principal }) => getStorageUsage(ds, principal.accountId));
}
