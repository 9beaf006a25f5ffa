import type { Post, PostStatus, WebhookEventType } from '@postbus/contracts';

/** The status a post has once posts applied the event. */
const STATUS_AFTER: Partial<Record<WebhookEventType, PostStatus>> = {
  'post.published': 'posted',
  'post.restricted': 'posted',
  'post.failed': 'failed',
  'post.cancelled': 'cancelled',
};

/** posts has not written the result yet (both hear the same event): ask again shortly. */
export class PostNotCaughtUp extends Error {
  constructor(postId: string, event: string) {
    super(`post ${postId} does not show ${event} yet`);
    this.name = 'PostNotCaughtUp';
  }
}

/**
 * The post as GET /api/v1/posts/{id} returns it once posts has applied the event. posts and webhooks
 * hear the event at the same time, so the post read may still be `scheduled`: while `mayWait`, that
 * is reported (the event is read again shortly); after that, the event's own facts are laid over it.
 */
export function postAsAnnounced(
  type: WebhookEventType,
  post: Post,
  data: Record<string, unknown>,
  mayWait: boolean,
): Post {
  // The outcome of a first comment or chain is the event itself: laid over the post, whether posts has written it yet or not.
  if (type === 'post.first_comment' && isRecord(data.firstComment))
    return { ...post, firstComment: data.firstComment as Post['firstComment'] };
  if (type === 'post.thread' && Array.isArray(data.thread)) return { ...post, thread: data.thread as Post['thread'] };
  const expected = STATUS_AFTER[type];
  if (!expected || post.status === expected || post.status !== 'scheduled') return post;
  if (mayWait) throw new PostNotCaughtUp(post.id, type);
  if (type === 'post.published' || type === 'post.restricted') {
    return {
      ...post,
      status: 'posted',
      publishedAt: typeof data.publishedAt === 'string' ? data.publishedAt : post.publishedAt,
      permalink: typeof data.permalink === 'string' ? data.permalink : post.permalink,
      warnings: Array.isArray(data.warnings) ? (data.warnings as Post['warnings']) : post.warnings,
    };
  }
  if (type === 'post.failed')
    return {
      ...post,
      status: 'failed',
      failedReason: typeof data.reason === 'string' ? data.reason : post.failedReason,
    };
  return { ...post, status: expected };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
