import { randomBytes } from 'node:crypto';
import { newId, type Approval, type Principal } from '@postbus/contracts';
import { findOwnPost, notEditable } from '../posts/post-access';
import { toApproval, type ApprovalPorts } from './approvals.ports';

const RULE = 'Only drafts can be sent for approval.';

/**
 * Sends a draft for approval: the post becomes pending_approval and a signed link is made for a
 * person to decide. Asking again while a request is pending answers that request again.
 */
export async function requestApproval(
  ports: ApprovalPorts,
  principal: Principal,
  id: string,
): Promise<Approval & { created: boolean }> {
  await ports.approvals.expireDue(id);
  const row = await findOwnPost(ports.posts, principal, id);
  if (row.status === 'pending_approval') {
    const pending = await ports.approvals.latestForPost(principal.accountId, id);
    if (pending?.status === 'pending') return { ...toApproval(ports, pending, row.status), created: false };
  }
  if (row.status !== 'draft') throw notEditable(row, RULE);

  const approval = await ports.ds.transaction(async (m) => {
    const moved = await ports.posts.updateIfUndispatched(m, principal.accountId, id, ['draft'], {
      status: 'pending_approval',
    });
    if (!moved) return undefined;
    return ports.approvals.insert(m, {
      id: newId('apr'),
      accountId: principal.accountId,
      postId: id,
      nonce: randomBytes(16).toString('base64url'),
      ttlSeconds: ports.ttlSeconds,
    });
  });
  if (!approval) throw notEditable(await findOwnPost(ports.posts, principal, id), RULE);
  return { ...toApproval(ports, approval, 'pending_approval'), created: true };
}
