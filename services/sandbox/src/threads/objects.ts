import { objectNotFound } from '../meta/graph-error';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import { containerStatus, ownContainer } from './containers';
import type { ThreadsMedia } from './store';

/**
 * `GET /{id}?fields=…` for whatever the id names: the user (`me` or their id), a published
 * post, or a container. Only the requested fields come back, plus `id`, as on Graph.
 */
export function readObject(
  state: SandboxState,
  user: SandboxUser,
  id: string,
  fields: string[],
): Record<string, unknown> {
  if (id === 'me' || id === user.userId) {
    return pick({ id: user.userId, username: user.handle, name: user.handle }, fields);
  }
  const media = state.threads.media.get(id);
  if (media) {
    if (media.userId !== user.userId) throw objectNotFound('get', id);
    return pick(mediaFields(media), fields);
  }
  const container = ownContainer(state, user, id, 'get');
  const { status, errorMessage } = containerStatus(state, container);
  return pick({ id: container.id, status, ...(errorMessage && { error_message: errorMessage }) }, fields);
}

/** Which kind of object an id names, so faults can target status polls apart from other reads. */
export function isContainerId(state: SandboxState, id: string): boolean {
  return state.threads.containers.has(id);
}

function mediaFields(media: ThreadsMedia): Record<string, unknown> {
  return {
    id: media.id,
    permalink: media.permalink,
    shortcode: media.shortcode,
    timestamp: metaTimestamp(media.publishedAt),
    media_type:
      media.mediaType === 'TEXT' ? 'TEXT_POST' : media.mediaType === 'CAROUSEL' ? 'CAROUSEL_ALBUM' : media.mediaType,
    media_product_type: 'THREADS',
    text: media.text,
    username: media.username,
    is_quote_post: false,
  };
}

/** `2024-07-01T12:00:00+0000`, Graph's timestamp format. */
function metaTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');
}

function pick(object: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) if (field in object) out[field] = object[field];
  out.id = object.id;
  return out;
}
