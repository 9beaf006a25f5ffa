import type { Post, Principal } from '@postbus/contracts';
import { writeOutbox } from '@postbus/bus';
import type { ApprovalRepository } from '../approvals/approval.repository';
import { lockHeldSlot, moveQueueUp, reshuffleFlag, type QueueMove } from '../schedules/reshuffle-queue';
import { findOwnPost, notEditable } from './post-access';
import { CANCELLABLE_STATUSES, toPost } from './post.repository';
import { postWithdrawn } from './post-withdrawn';
import type { PostsPorts } from './posts.ports';

const RULE = 'Only drafts, posts awaiting approval and scheduled posts not yet dispatched can be cancelled.';

/**
 * Cancels a post before it is dispatched; a pending approval link stops working with it. With
 * `reshuffle`, later queued posts of its schedule and profile move up into the slot it frees.
 */
export async function cancelPost(
  ports: PostsPorts & { approvals: ApprovalRepository },
  principal: Principal,
  id: string,
  reshuffleInput?: unknown,
): Promise<Post & { reshuffled?: QueueMove[] }> {
  const reshuffle = reshuffleFlag(reshuffleInput);
  const row = await findOwnPost(ports.posts, principal, id);
  if (!CANCELLABLE_STATUSES.includes(row.status) || row.dispatched_at) throw notEditable(row, RULE);
  const result = await ports.ds.transaction(async (m) => {
    // The schedule is locked before the post, in the order queueing takes them.
    const held = reshuffle ? await lockHeldSlot(m, principal.accountId, id, ports.clock()) : undefined;
    const done = await ports.posts.updateIfUndispatched(m, principal.accountId, id, CANCELLABLE_STATUSES, {
      status: 'cancelled',
    });
    if (!done) return undefined;
    await ports.approvals.cancelPending(m, id);
    await writeOutbox(m, [postWithdrawn(done, 'cancelled')]);
    return { done, moves: held ? await moveQueueUp(m, principal.accountId, held) : [] };
  });
  if (!result) throw notEditable(await findOwnPost(ports.posts, principal, id), RULE);
  ports.announce?.();
  return reshuffle ? { ...toPost(result.done), reshuffled: result.moves } : toPost(result.done);
}
