import { FOLLOW_UP_FAILED_WITH_POST } from '@postbus/contracts';
import type { SqlRunner } from '@postbus/kit';
import type { PostRow } from '../posts/post.repository';

/** A rendition scheduled posts wait for, with the earliest time one of them is due. */
export interface RenditionWait {
  mediaId: string;
  accountId: string;
  platform: string;
  earliestDue: Date;
  /** A cover frame the posts wait for, not the video they publish. */
  cover: boolean;
}

/** The renditions scheduled, undispatched posts wait for, those due soonest first (the partial index on awaiting_media_id). */
export async function waitingRenditions(db: SqlRunner, limit: number): Promise<RenditionWait[]> {
  const rows = await db.query<{ media_id: string; account_id: string; platform: string; due: Date; cover: boolean }>(
    `SELECT media_id, account_id, min(platform) AS platform, min(scheduled_time) AS due, cover FROM (
       SELECT awaiting_media_id AS media_id, account_id, platform, scheduled_time, false AS cover
         FROM posts WHERE awaiting_media_id IS NOT NULL AND status = 'scheduled' AND dispatched_at IS NULL
       UNION ALL
       SELECT awaiting_cover_id, account_id, platform, scheduled_time, true
         FROM posts WHERE awaiting_cover_id IS NOT NULL AND status = 'scheduled' AND dispatched_at IS NULL
     ) waits GROUP BY media_id, account_id, cover ORDER BY due LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    mediaId: r.media_id,
    accountId: r.account_id,
    platform: r.platform,
    earliestDue: new Date(r.due),
    cover: r.cover,
  }));
}

/** The rendition is made: its posts carry its fresh URL first and may be dispatched. Answers how many. */
export async function releaseWaiting(db: SqlRunner, mediaId: string, url: string): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `UPDATE posts SET awaiting_media_id = NULL, media_urls = jsonb_set(media_urls, '{0}', to_jsonb($2::text)), updated_at = now()
      WHERE awaiting_media_id = $1 AND dispatched_at IS NULL RETURNING id`,
    [mediaId, url],
  );
  return rows.length;
}

/**
 * The cover frame is made (`keep`) or will not be (failed, deleted, too slow: the posts due by
 * `dueBy`, when given, go out without it, with the platform's own cover). Answers how many posts.
 */
export async function releaseCoverWait(db: SqlRunner, mediaId: string, keep: boolean, dueBy?: Date): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `UPDATE posts SET awaiting_cover_id = NULL, cover_media_id = CASE WHEN $2 THEN cover_media_id END, updated_at = now()
      WHERE awaiting_cover_id = $1 AND dispatched_at IS NULL AND ($3::timestamptz IS NULL OR scheduled_time <= $3::timestamptz)
      RETURNING id`,
    [mediaId, keep, dueBy ?? null],
  );
  return rows.length;
}

/**
 * Fails the scheduled posts waiting for the rendition (those due at or before `dueBy`, when
 * given): marked dispatched and failed at once, so the scheduler never takes them, their
 * pending first comment and chain failing with them, as a publish failure does.
 */
export async function failWaiting(db: SqlRunner, mediaId: string, reason: string, dueBy?: Date): Promise<PostRow[]> {
  return db.query<PostRow>(
    `UPDATE posts SET status = 'failed', failed_reason = $2, dispatched_at = clock_timestamp(), awaiting_media_id = NULL, updated_at = now(),
       first_comment = CASE WHEN jsonb_typeof(first_comment) = 'object' THEN first_comment || jsonb_build_object('status', 'failed', 'failedReason', $4::text) ELSE first_comment END,
       thread = (SELECT coalesce(jsonb_agg(part || jsonb_build_object('status', 'failed', 'failedReason', $4::text) ORDER BY i), '[]'::jsonb) FROM jsonb_array_elements(thread) WITH ORDINALITY AS t(part, i))
     WHERE awaiting_media_id = $1 AND status = 'scheduled' AND dispatched_at IS NULL AND ($3::timestamptz IS NULL OR scheduled_time <= $3::timestamptz)
     RETURNING *`,
    [mediaId, reason, dueBy ?? null, FOLLOW_UP_FAILED_WITH_POST],
  );
}
