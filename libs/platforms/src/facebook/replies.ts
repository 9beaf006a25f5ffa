import { sendGraphRequest } from '../meta/graph-request';
import { metaReplyErrorMapper, replyIdFrom } from '../meta/reply-errors';

const errors = metaReplyErrorMapper('facebook');

/** Graph API base (`https://graph.facebook.com/v26.0`) and the Page token. */
export interface FacebookReplyApiOptions {
  baseUrl: string;
  accessToken: string;
  fetchImpl?: typeof fetch;
  timeoutMs?: number;
}

function post(api: FacebookReplyApiOptions, segments: string[], form: Record<string, string>) {
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

/** A public reply under a Page post's comment, as the Page: `POST /{comment-id}/comments?message=` (pages_manage_engagement). */
export async function replyToFacebookComment(
  api: FacebookReplyApiOptions,
  commentId: string,
  text: string,
): Promise<{ id: string }> {
  const body = await post(api, [commentId, 'comments'], { message: text });
  return { id: replyIdFrom('facebook', body, 'id') };
}

/**
 * A private reply: a Messenger message to the commenter, `POST /{page-id}/messages` with
 * `recipient={"comment_id":…}` and `message={"text":…}` (pages_messaging). One per comment.
 */
export async function sendFacebookPrivateReply(
  api: FacebookReplyApiOptions,
  pageId: string,
  commentId: string,
  text: string,
): Promise<{ id: string }> {
  const body = await post(api, [pageId, 'messages'], {
    recipient: JSON.stringify({ comment_id: commentId }),
    message: JSON.stringify({ text }),
  });
  return { id: replyIdFrom('facebook', body, 'message_id') };
}
