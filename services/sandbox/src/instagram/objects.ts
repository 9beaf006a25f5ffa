import { objectNotFound } from '../meta/graph-error';
import { graphFields } from '../meta/graph-http';
import { graphPageWindow, graphTimestamp, pickFields } from '../meta/graph-objects';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import { instagramContainerStatus, ownInstagramContainer } from './containers';
import type { InstagramMedia } from './store';

/** `GET /{id}?fields=…` for the account, a published media or a container; only the requested fields come back, plus `id`. */
export function readInstagramObject(
  state: SandboxState,
  user: SandboxUser,
  id: string,
  fields: string[],
): Record<string, unknown> {
  if (id === 'me' || id === user.userId)
    return pickFields({ id: user.userId, username: user.handle, user_id: user.userId }, fields);
  const media = state.instagram.media.get(id);
  if (media) {
    if (media.userId !== user.userId) throw objectNotFound('get', id);
    return pickFields(mediaFields(media), fields);
  }
  const container = ownInstagramContainer(state, user, id);
  const { status, error } = instagramContainerStatus(state, container);
  return pickFields(
    { id: container.id, status_code: status, status: status === 'ERROR' ? `Error: ${error}` : status },
    fields,
  );
}

/** Graph answers at most this many media a page. */
const MEDIA_PAGE_MAX = 100;

/**
 * `GET /{ig-user-id}/media`: the user's media, newest first, stories left out (they are on
 * `/{ig-user-id}/stories`), as https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media
 * lists them; `since`/`until` Unix seconds, `limit` 1–100 (default 25); `fields` as asked (id always).
 */
export function userInstagramMedia(
  state: SandboxState,
  user: SandboxUser,
  params: Record<string, string>,
): Record<string, unknown>[] {
  const { since, until, limit } = graphPageWindow(params, MEDIA_PAGE_MAX);
  const fields = graphFields(params);
  return [...state.instagram.media.values()]
    .filter((m) => m.userId === user.userId && m.productType !== 'STORY')
    .filter((m) => m.publishedAt >= since && m.publishedAt <= until)
    .sort((a, b) => b.publishedAt - a.publishedAt || Number(b.id) - Number(a.id))
    .slice(0, limit)
    .map((m) => pickFields(mediaFields(m), fields));
}

/** The IG Media fields the sandbox knows; a caption-less media has no `caption` field, as on Instagram. */
function mediaFields(media: InstagramMedia): Record<string, unknown> {
  return {
    id: media.id,
    permalink: media.permalink,
    shortcode: media.shortcode,
    media_type:
      media.mediaType === 'REELS' ? 'VIDEO' : media.mediaType === 'CAROUSEL' ? 'CAROUSEL_ALBUM' : media.mediaType,
    media_product_type: media.productType,
    ...(media.caption && { caption: media.caption }),
    timestamp: graphTimestamp(media.publishedAt),
    username: media.username,
  };
}

export function isInstagramContainer(state: SandboxState, id: string): boolean {
  return state.instagram.containers.has(id);
}
