import { Events, type EventOf } from '@postbus/contracts';
import type { PostRepository } from '../posts/post.repository';

/** A publish result as its contract types it. */
export type PublishResult = EventOf<typeof Events.postPublished> | EventOf<typeof Events.postFailed>;

/**
 * Writes a publish result back once: only a dispatched post still `scheduled` moves, so a late,
 * repeated or contradicting result never changes a post that is posted, failed or cancelled.
 * Answers whether the post moved.
 */
export async function applyPublishResult(posts: PostRepository, event: PublishResult): Promise<boolean> {
  if (event.name === Events.postPublished.name) {
    const d = event.data;
    return posts.markPosted(d.postId, {
      publishedAt: d.publishedAt,
      permalink: d.permalink,
      platformPostId: d.platformPostId,
      warnings: d.warnings,
    });
  }
  return posts.markFailed(event.data.postId, event.data.reason);
}

/** What became of a post's first comment or Threads chain, written as announced (a repeat changes nothing). */
export async function applyFollowUpResult(
  posts: PostRepository,
  event: EventOf<typeof Events.postFirstComment> | EventOf<typeof Events.postThread>,
): Promise<boolean> {
  if (event.name === Events.postFirstComment.name)
    return posts.setFirstComment(event.data.postId, event.data.firstComment);
  return posts.setThread(event.data.postId, event.data.thread);
}
