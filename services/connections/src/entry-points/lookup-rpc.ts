import { Rpc } from '@postbus/contracts';
import type { RpcServer } from '@postbus/bus';
import type { DataSource } from 'typeorm';
import { toProfile, type ProfileRow } from '../profiles/profile.repository';

/** Profiles connected to one platform account (active or needing a reconnect), in every Postbus account that connected it. */
function findConnectedByPlatformUser(ds: DataSource, platform: string, platformUserId: string): Promise<ProfileRow[]> {
  return ds.query(`SELECT * FROM profiles WHERE platform = $1 AND platform_user_id = $2 AND status <> 'disconnected' ORDER BY connected_at, id`, [platform, platformUserId]);
}

/** Lookups across accounts for services that know only a platform's own account id (e.g. from its webhooks). */
export function registerLookupRpc(rpc: RpcServer, ds: DataSource): void {
  rpc.handle(Rpc.connectionsFindByPlatformUser, async ({ platform, platformUserId }) => ({ profiles: (await findConnectedByPlatformUser(ds, platform, platformUserId)).map(toProfile) }));
}
