import { Rpc } from '@postbus/contracts';
import type { RpcServer } from '@postbus/bus';
import { toProfile, type ProfileRepository } from '../profiles/profile.repository';

/** Lookups across accounts for services that know only a platform's own account id (e.g. from its webhooks). */
export function registerLookupRpc(
  rpc: RpcServer,
  profiles: Pick<ProfileRepository, 'findConnectedByPlatformUser'>,
): void {
  rpc.handle(Rpc.connectionsFindByPlatformUser, async ({ platform, platformUserId }) => ({
    profiles: (await profiles.findConnectedByPlatformUser(platform, platformUserId)).map(toProfile),
  }));
}
