import type { ConnectedAccount, Principal } from '@postbus/contracts';
import { toConnectedAccount, type ProfileRepository } from './profile.repository';

/** Connected accounts the key may use: its profile restriction applies; disconnected ones are gone. */
export async function listConnectedAccounts(
  profiles: ProfileRepository,
  principal: Principal,
): Promise<{ accounts: ConnectedAccount[]; count: number }> {
  const rows = await profiles.listConnected(principal.accountId, principal.profileIds);
  return { accounts: rows.map(toConnectedAccount), count: rows.length };
}
