import { Events, type Rpc, type RpcInput } from '@postbus/contracts';
import { envelope } from '@postbus/bus';
import type { ProfileRow } from './profile.repository';

/** connection.changed for a profile row just written: written to the outbox in the same transaction. */
export function profileChanged(row: ProfileRow) {
  return envelope(Events.connectionChanged, {
    profileId: row.id,
    accountId: row.account_id,
    platform: row.platform,
    status: row.status,
    revision: Number(row.revision),
    connectedAt: new Date(row.connected_at).toISOString(),
  });
}

export type WithdrawnFact = RpcInput<typeof Rpc.postsProfileWithdrawn> & { accountId: string };

/**
 * Tells posts, which checks creates against its own facts of profiles, of the fact a change away
 * from `active` will leave, before the change commits (posts.profiles.withdrawn): connection.changed
 * may still be on its way when the caller, told of the change, creates a post to the profile.
 */
export type WithdrawFromPosts = (fact: WithdrawnFact) => Promise<void>;

/** The fact a profile row will have once it leaves `active` for `status`. */
export function withdrawnFact(before: ProfileRow, status: WithdrawnFact['status']): WithdrawnFact {
  return {
    profileId: before.id,
    accountId: before.account_id,
    platform: before.platform,
    status,
    connectedAt: new Date(before.connected_at).toISOString(),
    // the revision the change writes (one in between writes a higher one, which posts then hears)
    revision: Number(before.revision) + 1,
  };
}
