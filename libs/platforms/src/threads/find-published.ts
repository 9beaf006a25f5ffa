import { findPublishedMedia, type PublishedMedia } from '../meta/find-published';
import { callThreads, type ThreadsApiOptions } from './api';

export interface FindPublishedThreadOptions extends ThreadsApiOptions {
  userId: string;
  /** The text the container was created with. */
  text: string;
  /** When the container was created, if known: its post went live at or after that. */
  containerCreatedAt?: number;
  now?: number;
}

/**
 * The post a PUBLISHED container became: the earliest of the user's latest posts with the
 * container's text, stamped after the container was made. Null when none matches (a post without
 * text cannot be told apart this way): the caller keeps the container's id.
 */
export async function findPublishedThread(opts: FindPublishedThreadOptions): Promise<PublishedMedia | null> {
  if (!opts.text.trim()) return null;
  return findPublishedMedia({
    // https://developers.facebook.com/docs/threads/retrieve-and-discover-posts/retrieve-posts: a user's posts, newest first, `since` in Unix seconds.
    read: (query) => callThreads(opts, 'GET', [opts.userId, 'threads'], { query }),
    fields: 'id,permalink,text,timestamp',
    sameText: (post) => post.text === opts.text,
    containerCreatedAt: opts.containerCreatedAt,
    now: opts.now,
  });
}
