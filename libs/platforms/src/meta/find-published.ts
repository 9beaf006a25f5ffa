/** How far back of its container's creation a published media may be stamped: Meta's clock is not ours. */
const CLOCK_SLACK_MS = 60_000;
/** A container not published within 24 hours expires, so its media is never older than that. */
const CONTAINER_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Graph answers at most 100 media a page; a container's media is among the user's latest. */
const PAGE_SIZE = 50;

/** The media a PUBLISHED Instagram or Threads container became. */
export interface PublishedMedia {
  platformPostId: string;
  permalink: string | null;
}

export interface PublishedMediaSearch {
  /** Reads one page of the user's latest media, newest first, with these query parameters. */
  read(query: Record<string, string>): Promise<Record<string, unknown>>;
  /** The fields to ask for: `id`, `permalink`, `timestamp` and the one the text is in. */
  fields: string;
  /** Whether a media carries the text the container was created with. */
  sameText(media: Record<string, unknown>): boolean;
  /** Take a match only when it is the one match (a media without text cannot be told apart otherwise). */
  uniqueOnly?: boolean;
  /** When the container was created, if known: its media went live at or after that. */
  containerCreatedAt?: number;
  now?: number;
}

/**
 * Meta tells only that a container is PUBLISHED, not under which media id: the user's latest media
 * are read and the earliest one with the container's text, stamped after the container was made,
 * is taken. Null when none matches: the caller keeps the container's id.
 */
export async function findPublishedMedia(search: PublishedMediaSearch): Promise<PublishedMedia | null> {
  const now = search.now ?? Date.now();
  const since = (search.containerCreatedAt ?? now - CONTAINER_LIFETIME_MS) - CLOCK_SLACK_MS;
  const body = await search.read({
    fields: search.fields,
    since: String(Math.floor(since / 1000)),
    limit: String(PAGE_SIZE),
  });
  const media = Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : [];
  const matches = media.filter((m) => typeof m.id === 'string' && search.sameText(m) && stampOf(m.timestamp) >= since);
  if (search.uniqueOnly && matches.length !== 1) return null;
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
