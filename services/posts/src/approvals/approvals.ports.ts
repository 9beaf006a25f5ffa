import type { Approval, PostStatus } from '@postbus/contracts';
import type { PostsPorts } from '../posts/posts.ports';
import type { ApprovalRow } from './approval.repository';
import type { ApprovalRepository } from './approval.repository';
import type { ApprovalSigner } from './approval-signer';

export interface ApprovalPorts extends PostsPorts {
  approvals: ApprovalRepository;
  signer: ApprovalSigner;
  /** {base_url}: approval pages are reached through the gateway under it. */
  publicBaseUrl: string;
  ttlSeconds: number;
}

export function approvalUrl(ports: Pick<ApprovalPorts, 'signer' | 'publicBaseUrl'>, a: ApprovalRow): string {
  return `${ports.publicBaseUrl}/approvals/${encodeURIComponent(a.id)}?token=${ports.signer.sign(a.id, a.nonce)}`;
}

export function toApproval(
  ports: Pick<ApprovalPorts, 'signer' | 'publicBaseUrl'>,
  a: ApprovalRow,
  postStatus: PostStatus,
): Approval {
  return {
    postId: a.post_id,
    status: postStatus,
    decision: a.status,
    approvalUrl: a.status === 'pending' ? approvalUrl(ports, a) : null,
    expiresAt: new Date(a.expires_at).toISOString(),
    requestedAt: new Date(a.requested_at).toISOString(),
    decidedAt: a.decided_at ? new Date(a.decided_at).toISOString() : null,
  };
}
