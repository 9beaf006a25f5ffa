import { countOf, itemNotListed, type PlatformEngagement } from '../insights/engagement';
import { PlatformError } from '../errors';
import { BLUESKY_PLATFORM, callXrpc } from './api';

/** Where a post's counts are read: an AppView (https://docs.bsky.app/docs/advanced-guides/api-directory), public, no session. */
export interface BlueskyAppViewOptions {
  /** e.g. https://public.api.bsky.app, or the sandbox's `/bluesky`. */
  appViewUrl: string;
  fetchImpl?: typeof fetch;
  timeoutMs?: number;
}

/**
 * A post's counts as the AppView keeps them (`app.bsky.feed.getPosts`,
 * https://docs.bsky.app/docs/api/app-bsky-feed-get-posts): likes, replies as comments, reposts
 * and quotes together as shares. Bluesky reports no views. A post the AppView does not answer
 * (deleted, or taken down) is not listed any more.
 */
export async function getBlueskyEngagement(api: BlueskyAppViewOptions, uri: string): Promise<PlatformEngagement> {
  if (!uri.startsWith('at://')) throw itemNotListed(BLUESKY_PLATFORM, uri.slice(0, 200));
  // https://docs.bsky.app/docs/api/app-bsky-feed-get-posts
  const body = await callXrpc<{ posts?: unknown }>(
    { serviceUrl: api.appViewUrl, fetchImpl: api.fetchImpl, timeoutMs: api.timeoutMs },
    { method: 'GET', nsid: 'app.bsky.feed.getPosts', query: { uris: uri } },
  );
  if (!Array.isArray(body.posts))
    throw new PlatformError('The Bluesky AppView answered getPosts without its posts; trying again.', {
      platform: BLUESKY_PLATFORM,
      transient: true,
      code: 'invalid_answer',
    });
  const post = (body.posts as Record<string, unknown>[]).find((p) => p?.uri === uri);
  if (!post) throw itemNotListed(BLUESKY_PLATFORM, uri);
  const reposts = countOf(post.repostCount);
  const quotes = countOf(post.quoteCount);
  return {
    views: null,
    likes: countOf(post.likeCount),
    comments: countOf(post.replyCount),
    shares: reposts === null && quotes === null ? null : (reposts ?? 0) + (quotes ?? 0),
  };
}
