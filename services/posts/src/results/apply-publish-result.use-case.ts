import { Events, type EventEnvelope, type PostFailed, type PostPublished } from '@postbus/contracts';
import type { PostRepository } from '../posts/post.repository';

/**
 * Writes a publish result back once: only a dispatched post still `scheduled` moves, so a late,
 * repeated or contradicting result never changes a post that is posted, failed or cancelled.
 * Answers whether the post moved.
 */
export async function applyPublishResult(posts: PostRepository, event: EventEnvelope): Promise<boolean> {
  if (event.name === Events.postPublished.name) {
    const d = event.data as PostPublished;
    return posts.markPosted(d.postId, { publishedAt: d.publishedAt, permalink: d.permalink, platformPostId: d.platformPostId, warnings: d.warnings });
  }
  if (event.name === Events.postFailed.name) {
    const d = event.data as PostFailed;
    return posts.markFailed(d.postId, d.reason);
  }
  return false;
}
