import type { Database } from '@postbus/kit';
import { AppError, Events, type ConnectedAccount, type Principal } from '@postbus/contracts';
import { envelope, writeOutbox } from '@postbus/bus';
import { findUsableProfile } from './find-usable-profile';
import { profileChanged, withdrawnFact, type WithdrawFromPosts } from './profile-changed';
import { toConnectedAccount, type ProfileRepository } from './profile.repository';

export interface DisconnectPorts {
  db: Database;
  profiles: ProfileRepository;
  announced(): void;
  withdrawFromPosts: WithdrawFromPosts;
}

/**
 * Disconnects a profile: its tokens are erased and connection.revoked is announced in the same
 * transaction. New posts to it are refused (it is no longer listed as active) and scheduled ones
 * fail in the publisher, which no longer gets its credentials.
 *
 * posts hears of it before the transaction, not only from connection.changed, which may still be on
 * its way when the caller, told the profile is disconnected, creates a post to it. posts not
 * answering refuses the disconnect, which then changed nothing.
 */
export async function disconnectProfile(
  ports: DisconnectPorts,
  principal: Principal,
  id: string,
): Promise<ConnectedAccount> {
  const before = await findUsableProfile(ports.profiles, principal, id);
  await ports.withdrawFromPosts(withdrawnFact(before, 'disconnected'));
  const row = await ports.db.transaction(async (m) => {
    const done = await ports.profiles.disconnect(m, principal.accountId, id);
    if (done)
      await writeOutbox(m, [
        envelope(Events.connectionRevoked, { profileId: done.id, accountId: done.account_id }),
        profileChanged(done),
      ]);
    return done;
  });
  if (!row) throw new AppError('not_found', `No connected account ${id}.`);
  ports.announced();
  return toConnectedAccount(row);
}
