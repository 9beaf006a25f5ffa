import { AppError } from '@postbus/contracts';
import { writeOutbox } from '@postbus/bus';
import type { PostRow } from '../posts/post.repository';
import { postWithdrawn } from '../posts/post-withdrawn';
import type { ApprovalRow } from './approval.repository';
import type { ApprovalPorts } from './approvals.ports';

export interface ApprovalView {
  approval: ApprovalRow;
  post: PostRow;
}
export type Decision = 'approve' | 'reject';

/** What the page behind a signed link shows; any other link is not_found, whatever is wrong with it. */
export async function openApproval(ports: ApprovalPorts, approvalId: string, token: unknown): Promise<ApprovalView> {
  const found = await ports.approvals.find(approvalId);
  if (!found || !ports.signer.verify(found.id, found.nonce, token))
    throw new AppError('not_found', 'This approval link is not valid.');
  await ports.approvals.expireDue(found.post_id);
  const approval = (await ports.approvals.find(approvalId))!;
  const post = (await ports.posts.findForAccount(approval.account_id, approval.post_id))!;
  return { approval, post };
}

/**
 * Records a person's decision once: approved posts become scheduled (due at their
 * scheduledTime, or at the next scheduler run when it has passed or was never set), rejected
 * ones rejected. A used, expired or cancelled link changes nothing and shows what happened.
 */
export async function decideApproval(
  ports: ApprovalPorts,
  approvalId: string,
  token: unknown,
  decision: Decision,
): Promise<ApprovalView> {
  const view = await openApproval(ports, approvalId, token);
  if (view.approval.status !== 'pending') return view;
  const now = ports.clock();
  await ports.ds.transaction(async (m) => {
    const decided = await ports.approvals.decide(m, approvalId, decision === 'approve' ? 'approved' : 'rejected');
    if (!decided) return;
    const due =
      view.post.scheduled_time && new Date(view.post.scheduled_time) > now
        ? new Date(view.post.scheduled_time)
        : ports.nextTick(now);
    const changes =
      decision === 'approve' ? { status: 'scheduled' as const, scheduled_time: due } : { status: 'rejected' as const };
    const moved = await ports.posts.updateIfUndispatched(
      m,
      view.post.account_id,
      view.post.id,
      ['pending_approval'],
      changes,
    );
    if (!moved) throw new AppError('post_not_editable', `Post ${view.post.id} is no longer awaiting approval.`);
    if (decision === 'reject') await writeOutbox(m, [postWithdrawn(moved, 'rejected')]);
  });
  if (decision === 'reject') ports.announce?.();
  return openApproval(ports, approvalId, token);
}
