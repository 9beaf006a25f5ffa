import type { SqlRunner } from '@postbus/kit';
import type { PostRow } from '../posts/post.repository';

/**
 * Marks up to `limit` due posts dispatched and answers them. SKIP LOCKED lets several posts
 * replicas claim side by side without taking the same row; the caller's transaction holds the
 * rows until it has written their outbox rows.
 */
export function claimDue(m: SqlRunner, limit: number): Promise<PostRow[]> {
  return m.query<PostRow>(
    `WITH due AS (
       SELECT id FROM posts
       WHERE status = 'scheduled' AND dispatched_at IS NULL AND scheduled_time <= now()
         -- a post waits for its rendition and cover frame (normalize); the rendition watcher clears these or fails the post
         AND awaiting_media_id IS NULL AND awaiting_cover_id IS NULL
       ORDER BY scheduled_time
       LIMIT $1
       FOR UPDATE SKIP LOCKED
     )
     , claimed AS (
       UPDATE posts p SET dispatched_at = clock_timestamp(), updated_at = now()
       FROM due WHERE p.id = due.id
       RETURNING p.*
     )
     SELECT * FROM claimed`,
    [limit],
  );
}

/** Marks announced again, and answers, up to `limit` posts dispatched (or announced again) at least `afterMs` ago that still wait for their outcome. */
export function markStalledRedispatched(m: SqlRunner, afterMs: number, limit: number): Promise<PostRow[]> {
  return m.query<PostRow>(
    `WITH stalled AS (
       SELECT id FROM posts
       WHERE status = 'scheduled' AND dispatched_at IS NOT NULL
         AND coalesce(redispatched_at, dispatched_at) < now() - make_interval(secs => $1::double precision / 1000)
       ORDER BY dispatched_at
       LIMIT $2
       FOR UPDATE SKIP LOCKED
     )
     , marked AS (
       UPDATE posts p SET redispatched_at = clock_timestamp()
       FROM stalled WHERE p.id = stalled.id
       RETURNING p.*
     )
     SELECT * FROM marked`,
    [afterMs, limit],
  );
}

/** When the earliest post not yet dispatched is due (null when none waits); read from the due index. */
export async function earliestUndispatched(db: SqlRunner): Promise<Date | null> {
  // A post waiting for its rendition is not due to the scheduler: it would wake it at once, again and again.
  const [{ at }] = await db.query<{ at: Date | null }>(
    `SELECT min(scheduled_time) AS at FROM posts WHERE status = 'scheduled' AND dispatched_at IS NULL AND awaiting_media_id IS NULL AND awaiting_cover_id IS NULL`,
  );
  return at ? new Date(at) : null;
}
