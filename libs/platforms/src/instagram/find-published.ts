import { findPublishedMedia, type PublishedMedia } from '../meta/find-published';
import { callInstagram, type InstagramApiOptions } from './api';

export interface FindPublishedInstagramMediaOptions extends InstagramApiOptions {
  userId: string;
  /** The caption the container was created with ('' for none). */
  caption: string;
  /** When the container was created, if known: its media went live at or after that. */
  containerCreatedAt?: number;
  now?: number;
}

/**
 * The media a PUBLISHED container became: the earliest of the user's latest media with the
 * container's caption, stamped after the container was made. A media without a caption is taken
 * only when it is the one caption-less media of that time. Null when none matches: the caller
 * keeps the container's id. Stories are not on this edge.
 */
export async function findPublishedInstagramMedia(
  opts: FindPublishedInstagramMediaOptions,
): Promise<PublishedMedia | null> {
  const caption = opts.caption.trim();
  return findPublishedMedia({
    // https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media: the user's media, newest first, `since` in Unix seconds.
    read: (query) => callInstagram(opts, 'GET', [opts.userId, 'media'], { query }),
    fields: 'id,caption,permalink,timestamp',
    sameText: (media) => captionOf(media) === caption,
    uniqueOnly: !caption,
    containerCreatedAt: opts.containerCreatedAt,
    now: opts.now,
  });
}

/** A media's caption as sent ('' when it has none: Graph leaves the field out). */
function captionOf(media: Record<string, unknown>): string {
  return typeof media.caption === 'string' ? media.caption.trim() : '';
}
