import type { SandboxComment } from './comment-store';

export type PayloadWrapper = 'changes' | 'flat';

/**
 * The webhook body Meta sends for a new comment (platform-apis 7.3, 7.4): Instagram `comments`
 * (with the `changes[]` wrapper, or `field`/`value` straight in the entry as in the Business Login
 * example), Facebook Page `feed` with `item: comment`, Threads `replies` (topic `moderate`).
 */
export function commentPayload(
  comment: Omit<SandboxComment, 'payload'>,
  wrapper: PayloadWrapper = 'changes',
): Record<string, unknown> {
  const time = Math.floor(comment.createdAt / 1000);
  if (comment.platform === 'threads') return threadsPayload(comment, time);
  if (comment.platform === 'instagram') {
    const value = {
      id: comment.id,
      text: comment.text,
      from: { id: comment.from.id, username: comment.from.name },
      media: { id: comment.postId, media_product_type: 'FEED' },
      ...(comment.parentId && { parent_id: comment.parentId }),
    };
    const change = { field: 'comments', value };
    return {
      object: 'instagram',
      entry: [
        wrapper === 'flat'
          ? { id: comment.accountId, time, ...change }
          : { id: comment.accountId, time, changes: [change] },
      ],
    };
  }
  const value = {
    item: 'comment',
    verb: 'add',
    comment_id: comment.id,
    post_id: comment.postId,
    parent_id: comment.parentId ?? comment.postId,
    message: comment.text,
    from: { id: comment.from.id, name: comment.from.name },
    created_time: time,
  };
  return { object: 'page', entry: [{ id: comment.accountId, time, changes: [{ field: 'feed', value }] }] };
}

function threadsPayload(comment: Omit<SandboxComment, 'payload'>, time: number): Record<string, unknown> {
  const shortcode = Buffer.from(comment.id).toString('base64url').slice(0, 11);
  const value = {
    id: comment.id,
    username: comment.from.name,
    text: comment.text,
    media_type: 'TEXT_POST',
    permalink: `https://www.threads.net/@${comment.from.name}/post/${shortcode}`,
    replied_to: { id: comment.parentId ?? comment.postId },
    root_post: { id: comment.postId, owner_id: comment.accountId, username: comment.accountHandle },
    shortcode,
    timestamp: new Date(comment.createdAt).toISOString().replace(/\.\d{3}Z$/, '+0000'),
  };
  return {
    app_id: 'postbus-sandbox',
    topic: 'moderate',
    target_id: comment.accountId,
    time,
    subscription_id: '1',
    has_uid_field: false,
    values: { value, field: 'replies' },
  };
}
