import { callGraph, type GraphParams } from '../meta/graph-api';
import { metaReplyErrorMapper, replyIdFrom } from '../meta/reply-errors';
import type { FacebookReplyApiOptions } from './replies';

const errors = metaReplyErrorMapper('facebook', 'comment');

/** A Graph call with the comment wording of this platform's errors. */
const call = (api: FacebookReplyApiOptions, method: 'GET' | 'POST', segments: string[], params: GraphParams) =>
  callGraph(api, method, segments, params, errors);

/**
 * A comment on the Page's own post, as the Page: `POST /{post-id}/comments?message=`
 * (https://developers.facebook.com/docs/graph-api/reference/object/comments/, pages_manage_engagement).
 * A PlatformError with `outcomeUnknown` means it may have been posted unanswered: look for it with
 * findOwnFacebookComment before sending it again.
 */
export async function commentOnFacebookPost(
  api: FacebookReplyApiOptions,
  postId: string,
  text: string,
): Promise<{ id: string }> {
  const body = await call(api, 'POST', [postId, 'comments'], { form: { message: text } });
  return { id: replyIdFrom('facebook', body, 'id') };
}

/**
 * The Page's own comment with this text on the post, if there is one: `GET /{post-id}/comments` with
 * `fields=id,message,from` and `order=reverse_chronological` (same reference page), newest first.
 */
export async function findOwnFacebookComment(
  api: FacebookReplyApiOptions,
  postId: string,
  pageId: string,
  text: string,
): Promise<{ id: string } | undefined> {
  const body = await call(api, 'GET', [postId, 'comments'], {
    query: { fields: 'id,message,from', order: 'reverse_chronological', limit: '50' },
  });
  const data = Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : [];
  const own = data.find((c) => c.message === text && (c.from as { id?: unknown } | undefined)?.id === pageId);
  return own && typeof own.id === 'string' ? { id: own.id } : undefined;
}
