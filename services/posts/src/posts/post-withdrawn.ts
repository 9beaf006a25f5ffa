import { Events } from '@postbus/contracts';
import { envelope, type OutgoingEvent } from '@postbus/bus';
import type { PostRow } from './post.repository';

/**
 * post.withdrawn for a post that was just cancelled or rejected, written to the outbox in the
 * transaction that changed it: callers waiting for the post's outcome are answered at once.
 */
export function postWithdrawn(row: PostRow, status: 'cancelled' | 'rejected'): OutgoingEvent {
  return envelope(Events.postWithdrawn, {
    postId: row.id,
    accountId: row.account_id,
    profileId: row.profile_id,
    platform: row.platform,
    status,
    withdrawnAt: new Date(row.updated_at).toISOString(),
  });
}
