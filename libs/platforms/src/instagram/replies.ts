import { sendGraphRequest } from '../meta/graph-request';
import { metaReplyErrorMapper, replyIdFrom } from '../meta/reply-errors';
import type { InstagramApiOptions } from './api';

const errors = metaReplyErrorMapper('instagram');

function post(api: InstagramApiOptions, segments: string[], form: Record<string, string>) {
  return sendGraphRequest(
    {
      method: 'POST',
      url: `${api.baseUrl.replace(/\/+$/, '')}/${segments.map(encodeURIComponent).join('/')}`,
      accessToken: api.accessToken,
      form,
      fetchImpl: api.fetchImpl ?? fetch,
      timeoutMs: api.timeoutMs ?? 30_000,
    },
    errors,
  );
}

/**
 * A public reply under an Instagram comment: `POST /{ig-comment-id}/replies?message=`.
 * Instagram threads replies one level deep, so `commentId` is a top-level comment.
 */
export async function replyToInstagramComment(
  api: InstagramApiOptions,
  commentId: string,
  text: string,
): Promise<{ id: string }> {
  const body = await post(api, [commentId, 'replies'], { message: text });
  return { id: replyIdFrom('instagram', body, 'id') };
}

/**
 * A private reply: a direct message to the person who wrote the comment,
 * `POST /{ig-user-id}/messages` with `recipient={"comment_id":…}` and `message={"text":…}`.
 * Instagram allows one per comment.
 */
export async function sendInstagramPrivateReply(
  api: InstagramApiOptions,
  igUserId: string,
  commentId: string,
  text: string,
): Promise<{ id: string }> {
  const body = await post(api, [igUserId, 'messages'], {
    recipient: JSON.stringify({ comment_id: commentId }),
    message: JSON.stringify({ text }),
  });
  return { id: replyIdFrom('instagram', body, 'message_id') };
}
