import { callGraph, type GraphParams } from '../meta/graph-api';
import { metaReplyErrorMapper, replyIdFrom } from '../meta/reply-errors';
import type { InstagramApiOptions } from './api';

const errors = metaReplyErrorMapper('instagram', 'comment');

/** A Graph call with the comment wording of this platform's errors. */
const call = (api: InstagramApiOptions, method: 'GET' | 'POST', segments: string[], params: GraphParams) =>
  callGraph(api, method, segments, params, errors);

/**
 * A comment on the account's own media, as the account: `POST /{ig-media-id}/comments?message=`
 * (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-media/comments).
 * A PlatformError with `outcomeUnknown` means it may have been posted unanswered: look for it
 * with findOwnInstagramComment before sending it again.
 */
export async function commentOnInstagramMedia(
  api: InstagramApiOptions,
  mediaId: string,
  text: string,
): Promise<{ id: string }> {
  const body = await call(api, 'POST', [mediaId, 'comments'], { form: { message: text } });
  return { id: replyIdFrom('instagram', body, 'id') };
}

/**
 * The account's own comment with this text on the media, if there is one: `GET /{ig-media-id}/comments`
 * with `fields=id,text,username` (same reference page). Reads the first page (the newest comments),
 * where a comment sent moments ago is.
 */
export async function findOwnInstagramComment(
  api: InstagramApiOptions,
  mediaId: string,
  username: string,
  text: string,
): Promise<{ id: string } | undefined> {
  const body = await call(api, 'GET', [mediaId, 'comments'], { query: { fields: 'id,text,username', limit: '50' } });
  const data = Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : [];
  const own = data.find((c) => c.text === text && c.username === username);
  return own && typeof own.id === 'string' ? { id: own.id } : undefined;
}
