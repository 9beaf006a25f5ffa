import { Rpc, systemPrincipal } from '@postbus/contracts';
import type { RpcClient } from '@postbus/bus';
import type { Logger } from '@postbus/kit';
import type { ProfileChoice } from './pages/settings.page';
import type { Session } from '../sessions/session.repository';

/** The signed-in account's connected profiles, asked of connections; undefined when it does not answer. */
export function profilesOf(rpc: RpcClient, logger: Logger) {
  return async (session: Session): Promise<ProfileChoice[] | undefined> => {
    const principal = systemPrincipal({
      service: 'auth.settings',
      accountId: session.accountId,
      userId: session.userId,
      scopes: ['account:read'],
    });
    try {
      const { profiles } = await rpc.call(Rpc.connectionsListProfiles, {}, principal, { timeoutMs: 2000 });
      return profiles.map((p) => ({ id: p.id, platform: p.platform, handle: p.handle }));
    } catch (err) {
      logger.warn('connected profiles unavailable for settings', { err: (err as Error).message });
      return undefined;
    }
  };
}
