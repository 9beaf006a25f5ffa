import { callThreads, type ThreadsApiOptions } from './api';

/** How far back of its container's creation a published post may be stamped: Meta's clock is not ours. */
const CLOCK_SLACK_MS = 60_000;
/** A container not published within 24 hours expires, so its post is never older than that. */
const CONTAINER_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Threads answers at most 100 posts a page; a container's post is among the user's latest. */
const PAGE_SIZE = 50;

export interface FindPublishedThreadOptions extends ThreadsApiOptions {
  userId: string;
  /** The text the container was created with. */
  text: string;
  /** When the container was created, if known: its post went live at or after that. */
  containerCreatedAt?: number;
  now?: number;
}

/**
 * The post a PUBLISHED container became. Threads tells only that a container is PUBLISHED, not
 * under which media id, so the user's latest posts are read and the earliest one with the
 * container's text, stamped after the container was made, is taken. Null when none matches (a
 * post without text cannot be told apart this way): the caller keeps the container's id.
 */
export async function findPublishedThread(
  opts: FindPublishedThreadOptions,
): Promise<{ platformPostId: string; permalink: string | null } | null> {
  if (!opts.text.trim()) return null;
  const now = opts.now ?? Date.now();
  const since = (opts.containerCreatedAt ?? now - CONTAINER_LIFETIME_MS) - CLOCK_SLACK_MS;
  // https://developers.facebook.com/docs/threads/retrieve-and-discover-posts/retrieve-posts: a user's posts, newest first, `since` in Unix seconds.
  const body = await callThreads(opts, 'GET', [opts.userId, 'threads'], {
    query: { fields: 'id,permalink,text,timestamp', since: String(Math.floor(since / 1000)), limit: String(PAGE_SIZE) },
  });
  const posts = Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : [];
  const matches = posts.filter(
    (p) => typeof p.id === 'string' && p.text === opts.text && stampOf(p.timestamp) >= since,
  );
  const earliest = matches.sort((a, b) => stampOf(a.timestamp) - stampOf(b.timestamp))[0];
  if (!earliest) return null;
  return {
    platformPostId: earliest.id as string,
    permalink: typeof earliest.permalink === 'string' ? earliest.permalink : null,
  };
}

/** Graph's `2024-07-01T12:00:00+0000`, in ms; 0 when unreadable. */
function stampOf(value: unknown): number {
  if (typeof value !== 'string') return 0;
  const ms = Date.parse(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(ms) ? 0 : ms;
}
