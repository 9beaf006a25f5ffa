import { newId, type CommentReceived } from '@postbus/contracts';
import type { SqlRunner } from '@postbus/kit';

/** One row per platform comment ever heard: a redelivered webhook finds its comments already there. */
export class CommentInboxRepository {
  /** Stores the comments not heard before and answers those. */
  async insertNew(m: SqlRunner, comments: CommentReceived[]): Promise<CommentReceived[]> {
    const unique = [...new Map(comments.map((c) => [`${c.platform}\u0000${c.commentId}`, c])).values()];
    if (!unique.length) return [];
    const values: unknown[] = [];
    const rows = unique.map((c, i) => {
      values.push(newId('cmt'), c.platform, c.commentId, c.platformAccountId, c.postId, c.receivedAt);
      const b = i * 6;
      return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6})`;
    });
    const inserted: { platform: string; comment_id: string }[] = await m.query(
      `INSERT INTO comments (id, platform, comment_id, platform_account_id, post_id, received_at) VALUES ${rows.join(', ')}
       ON CONFLICT (platform, comment_id) DO NOTHING RETURNING platform, comment_id`,
      values,
    );
    const fresh = new Set(inserted.map((r) => `${r.platform}\u0000${r.comment_id}`));
    return unique.filter((c) => fresh.has(`${c.platform}\u0000${c.commentId}`));
  }
}
