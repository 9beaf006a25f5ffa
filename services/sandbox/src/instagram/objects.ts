import { objectNotFound } from '../meta/graph-error';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import { instagramContainerStatus, ownInstagramContainer } from './containers';

/** `GET /{id}?fields=…` for the account, a published media or a container; only the requested fields come back, plus `id`. */
export function readInstagramObject(
  state: SandboxState,
  user: SandboxUser,
  id: string,
  fields: string[],
): Record<string, unknown> {
  if (id === 'me' || id === user.userId)
    return pick({ id: user.userId, username: user.handle, user_id: user.userId }, fields);
  const media = state.instagram.media.get(id);
  if (media) {
    if (media.userId !== user.userId) throw objectNotFound('get', id);
    return pick(
      {
        id: media.id,
        permalink: media.permalink,
        shortcode: media.shortcode,
        media_type:
          media.mediaType === 'REELS' ? 'VIDEO' : media.mediaType === 'CAROUSEL' ? 'CAROUSEL_ALBUM' : media.mediaType,
        media_product_type: media.productType,
        caption: media.caption,
        timestamp: new Date(media.publishedAt).toISOString().replace(/\.\d{3}Z$/, '+0000'),
        username: media.username,
      },
      fields,
    );
  }
  const container = ownInstagramContainer(state, user, id);
  const { status, error } = instagramContainerStatus(state, container);
  return pick(
    { id: container.id, status_code: status, status: status === 'ERROR' ? `Error: ${error}` : status },
    fields,
  );
}

export function isInstagramContainer(state: SandboxState, id: string): boolean {
  return state.instagram.containers.has(id);
}

function pick(object: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) if (field in object) out[field] = object[field];
  out.id = object.id;
  return out;
}
