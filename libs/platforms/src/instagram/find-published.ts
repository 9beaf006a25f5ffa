import { callInstagram, type InstagramApiOptions } from './api';

/** How far back of its container's creation a published media may be stamped: Meta's clock is not ours. */
const CLOCK_SLACK_MS = 60_000;
/** A container not published within 24 hours expires, so its media is never older than that. */
const CONTAINER_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Graph answers at most 100 media a page; a container's media is among the user's latest. */
const PAGE_SIZE = 50;

export interface FindPublishedInstagramMediaOptions extends InstagramApiOptions {
  userId: string;
  /** The caption the container was created with ('' for none). */
  caption: string;
  /** When the container was created, if known: its media went live at or after that. */
  containerCreatedAt?: number;
  now?: number;
}

/**
 * The media a PUBLISHED container became. Instagram tells only that a container is PUBLISHED, not
 * under which media id, so the user's latest media are read and the earliest one with the
 * container's caption, stamped after the container was made, is taken. A media without a caption
 * is taken only when it is the one caption-less media of that time. Null when none matches: the
 * caller keeps the container's id. Stories are not on this edge.
 */
export async function findPublishedInstagramMedia(
  opts: FindPublishedInstagramMediaOptions,
): Promise<{ platformPostId: string; permalink: string | null } | null> {
  const now = opts.now ?? Date.now();
  const since = (opts.containerCreatedAt ?? now - CONTAINER_LIFETIME_MS) - CLOCK_SLACK_MS;
  // https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media: the user's media, newest first, `since` in Unix seconds.
  const body = await callInstagram(opts, 'GET', [opts.userId, 'media'], {
    query: {
      fields: 'id,caption,permalink,timestamp',
      since: String(Math.floor(since / 1000)),
      limit: String(PAGE_SIZE),
    },
  });
  const media = Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : [];
  const matches = media.filter(
    (m) => typeof m.id === 'string' && captionOf(m) === opts.caption.trim() && stampOf(m.timestamp) >= since,
  );
  if (!opts.caption.trim() && matches.length !== 1) return null;
  const earliest = matches.sort((a, b) => stampOf(a.timestamp) - stampOf(b.timestamp))[0];
  if (!earliest) return null;
  return {
    platformPostId: earliest.id as string,
    permalink: typeof earliest.permalink === 'string' ? earliest.permalink : null,
  };
}

/** A media's caption as sent ('' when it has none: Graph leaves the field out). */
function captionOf(media: Record<string, unknown>): string {
  return typeof media.caption === 'string' ? media.caption.trim() : '';
}

/** Graph's `2024-07-01T12:00:00+0000`, in ms; 0 when unreadable. */
function stampOf(value: unknown): number {
  if (typeof value !== 'string') return 0;
  const ms = Date.parse(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(ms) ? 0 : ms;
}
