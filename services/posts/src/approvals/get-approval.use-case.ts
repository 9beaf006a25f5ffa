import { AppError, type Approval, type Principal } from '@postbus/contracts';
import { findOwnPost } from '../posts/post-access';
import { toApproval, type ApprovalPorts } from './approvals.ports';

/** The latest approval request of a post and where the post stands. */
export async function getApproval(ports: ApprovalPorts, principal: Principal, id: string): Promise<Approval> {
  await ports.approvals.expireDue(id);
  const post = await findOwnPost(ports.posts, principal, id);
  const approval = await ports.approvals.latestForPost(principal.accountId, id);
  if (!approval)
    throw new AppError(
      'not_found',
      `No approval was requested for post ${id}; request one with POST /api/v1/posts/${id}/approval.`,
    );
  return toApproval(ports, approval, post.status);
}
