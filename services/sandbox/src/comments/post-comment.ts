import type { SandboxState } from '../state';
import type { CommentPlatform, SandboxComment } from './comment-store';
import { commentPayload, type PayloadWrapper } from './webhook-payloads';
import { deliverSigned, type DeliveryResult, type SignatureMode } from './webhook-delivery';

export interface NewComment {
  /** The platform's id when it exists already (a published Threads reply); generated otherwise. */
  id?: string;
  platform: CommentPlatform;
  accountId: string;
  accountHandle: string;
  postId?: string;
  parentId?: string | null;
  text: string;
  from: { id: string; name: string };
  wrapper?: PayloadWrapper;
}

/** Stores a comment on an account's post, with the webhook body that announces it. */
export function addComment(state: SandboxState, input: NewComment): SandboxComment {
  const postId =
    input.postId ?? (input.platform === 'facebook' ? `${input.accountId}_${state.ids.numeric()}` : state.ids.numeric());
  // Facebook comment ids are `<post>_<comment>`; Instagram's are plain Graph ids.
  const id =
    input.id ??
    (input.platform === 'facebook' ? `${postId.split('_').pop()}_${state.ids.numeric()}` : state.ids.numeric());
  const base = {
    platform: input.platform,
    id,
    accountId: input.accountId,
    accountHandle: input.accountHandle,
    postId,
    parentId: input.parentId ?? null,
    text: input.text,
    from: input.from,
    createdAt: state.now(),
  };
  const comment: SandboxComment = { ...base, payload: JSON.stringify(commentPayload(base, input.wrapper)) };
  state.comments.comments.set(id, comment);
  return comment;
}

/** Sends the comment's webhook body to every subscription, signed with each one's App Secret. */
export function announceComment(
  state: SandboxState,
  comment: SandboxComment,
  mode: SignatureMode = 'valid',
): Promise<DeliveryResult[]> {
  return Promise.all(state.comments.subscriptions.map((s) => deliverSigned(s, comment.payload, mode)));
}
