import type { Post, Principal } from '@postbus/contracts';
import type { ApprovalRepository } from '../approvals/approval.repository';
import { findOwnPost, notEditable } from './post-access';
import { CANCELLABLE_STATUSES, toPost } from './post.repository';
import type { PostsPorts } from './posts.ports';

const RULE = 'Only drafts, posts awaiting approval and scheduled posts not yet dispatched can be cancelled.';

/** Cancels a post before it is dispatched; a pending approval link stops working with it. */
export async function cancelPost(ports: PostsPorts & { approvals: ApprovalRepository }, principal: Principal, id: string): Promise<Post> {
  const row = await findOwnPost(ports.posts, principal, id);
  if (!CANCELLABLE_STATUSES.includes(row.status) || row.dispatched_at) throw notEditable(row, RULE);
  const cancelled = await ports.ds.transaction(async (m) => {
    const done = await ports.posts.updateIfUndispatched(m, principal.accountId, id, CANCELLABLE_STATUSES, { status: 'cancelled' });
    if (done) await ports.approvals.cancelPending(m, id);
    return done;
  });
  if (!cancelled) throw notEditable(await findOwnPost(ports.posts, principal, id), RULE);
  return toPost(cancelled);
}
