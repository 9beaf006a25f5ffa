import { Rpc } from '@postbus/contracts';
import type { RpcServer } from '@postbus/bus';
import type { MediaRepository } from '../library/media.repository';
import { getStorageUsage } from '../library/storage-usage.query';

/** The figure media contributes to the billing summary. */
export function registerSummariesRpc(rpc: RpcServer, media: Pick<MediaRepository, 'storageUsage'>): void {
  rpc.handle(Rpc.mediaStorageUsage, (_input, { principal }) => getStorageUsage(media, principal.accountId));
}
