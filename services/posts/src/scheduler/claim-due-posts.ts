import type { DataSource } from 'typeorm';
import { Events } from '@postbus/contracts';
import { envelope, writeOutbox } from '@postbus/bus';
import type { PostRow } from '../posts/post.repository';

/**
 * Claims due posts and announces them in one transaction: rows are marked dispatched and a
 * `post.due` outbox row is written per post, so a crash either dispatches both or neither.
 * SKIP LOCKED lets several posts replicas claim side by side without taking the same row.
 */
export async function claimDuePosts(ds: DataSource, limit: number, observeLag?: (seconds: number) => void): Promise<number> {
  return ds.transaction(async (m) => {
    const rows: PostRow[] = await m.query(
      `WITH due AS (
         SELECT id FROM posts
         WHERE status = 'scheduled' AND dispatched_at IS NULL AND scheduled_time <= now()
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
    if (!rows.length) return 0;
    await writeOutbox(m, rows.map(postDue));
    for (const r of rows) observeLag?.((new Date(r.dispatched_at!).getTime() - new Date(r.scheduled_time!).getTime()) / 1000);
    return rows.length;
  });
}

/**
 * Announces again, in one transaction with marking them, posts dispatched at least `afterMs`
 * ago (or announced again that long ago) that are still waiting for their outcome: a safety net
 * under every hop between here and the platform. The publisher's attempt log makes a repeat
 * harmless: a post in progress is left to its owner, a finished one has its outcome announced
 * again, and only a post no publisher ever took (or whose work was lost) is published.
 * Answers how many were announced again.
 */
export async function redispatchStalled(ds: DataSource, opts: { afterMs: number; limit: number }): Promise<number> {
  return ds.transaction(async (m) => {
    const rows: PostRow[] = await m.query(
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
      [opts.afterMs, opts.limit],
    );
    if (rows.length) await writeOutbox(m, rows.map(postDue));
    return rows.length;
  });
}

function postDue(r: PostRow) {
  return envelope(Events.postDue, {
    postId: r.id,
    accountId: r.account_id,
    profileId: r.profile_id,
    platform: r.platform,
    caption: r.caption,
    title: r.title,
    mediaUrls: r.media_urls,
    mediaId: r.media_id,
    platformMeta: r.platform_meta,
    scheduledTime: new Date(r.scheduled_time!).toISOString(),
    dispatchedAt: new Date(r.dispatched_at!).toISOString(),
  });
}

/** When the earliest post not yet dispatched is due (null when none waits); read from the due index. */
export async function nextDueTime(ds: DataSource): Promise<Date | null> {
  const [{ at }] = await ds.query(`SELECT min(scheduled_time) AS at FROM posts WHERE status = 'scheduled' AND dispatched_at IS NULL`);
  return at ? new Date(at) : null;
}
