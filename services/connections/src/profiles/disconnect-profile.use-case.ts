import type { Database } from '@postbus/kit';
import { AppError, Events, type ConnectedAccount, type Principal } from '@postbus/contracts';
import { envelope, writeOutbox } from '@postbus/bus';
import { findUsableProfile } from './find-usable-profile';
import { profileChanged } from './profile-changed';
import { toConnectedAccount, type ProfileRepository } from './profile.repository';

/**
 * Disconnects a profile: its tokens are erased and connection.revoked is announced in the same
 * transaction. New posts to it are refused (it is no longer listed as active) and scheduled ones
 * fail in the publisher, which no longer gets its credentials.
 */
export async function disconnectProfile(
  ports: { db: Database; profiles: ProfileRepository; announced(): void },
  principal: Principal,
  id: string,
): Promise<ConnectedAccount> {
  await findUsableProfile(ports.profiles, principal, id);
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
