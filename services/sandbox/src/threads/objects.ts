import { objectNotFound } from '../meta/graph-error';
import { graphFields } from '../meta/graph-http';
import { graphPageWindow, graphTimestamp, pickFields } from '../meta/graph-objects';
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
    return pickFields({ id: user.userId, username: user.handle, name: user.handle }, fields);
  }
  const media = state.threads.media.get(id);
  if (media) {
    if (media.userId !== user.userId) throw objectNotFound('get', id);
    return pickFields(mediaFields(media), fields);
  }
  const container = ownContainer(state, user, id, 'get');
  const { status, error: errorMessage } = containerStatus(state, container);
  return pickFields({ id: container.id, status, ...(errorMessage && { error_message: errorMessage }) }, fields);
}

/** Threads answers at most this many posts a page. */
const THREADS_PAGE_MAX = 100;

/**
 * `GET /{user}/threads`: the user's posts (not replies), newest first; `since`/`until` Unix
 * seconds, `limit` 1–100 (default 25); `fields` as asked (id always).
 */
export function userThreads(
  state: SandboxState,
  user: SandboxUser,
  params: Record<string, string>,
): Record<string, unknown>[] {
  const { since, until, limit } = graphPageWindow(params, THREADS_PAGE_MAX);
  const fields = graphFields(params);
  return [...state.threads.media.values()]
    .filter((m) => m.userId === user.userId && !m.replyToId && m.publishedAt >= since && m.publishedAt <= until)
    .sort((a, b) => b.publishedAt - a.publishedAt || Number(b.id) - Number(a.id))
    .slice(0, limit)
    .map((m) => pickFields(mediaFields(m), fields));
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
    timestamp: graphTimestamp(media.publishedAt),
    media_type:
      media.mediaType === 'TEXT' ? 'TEXT_POST' : media.mediaType === 'CAROUSEL' ? 'CAROUSEL_ALBUM' : media.mediaType,
    media_product_type: 'THREADS',
    text: media.text,
    username: media.username,
    is_quote_post: false,
  };
}
