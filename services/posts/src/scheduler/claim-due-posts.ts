import { Events } from '@postbus/contracts';
import { envelope, writeOutbox } from '@postbus/bus';
import { databaseOf, type DatabaseSource } from '@postbus/kit';
import type { PostRow } from '../posts/post.repository';
import { claimDue, earliestUndispatched, markStalledRedispatched } from './due-post.repository';

/**
 * Claims due posts and announces them in one transaction: rows are marked dispatched and a
 * `post.due` outbox row is written per post, so a crash either dispatches both or neither.
 * SKIP LOCKED lets several posts replicas claim side by side without taking the same row.
 */
export async function claimDuePosts(
  ds: DatabaseSource,
  limit: number,
  observeLag?: (seconds: number) => void,
): Promise<number> {
  return databaseOf(ds).transaction(async (m) => {
    const rows = await claimDue(m, limit);
    if (!rows.length) return 0;
    await writeOutbox(m, rows.map(postDue));
    for (const r of rows)
      observeLag?.((new Date(r.dispatched_at!).getTime() - new Date(r.scheduled_time!).getTime()) / 1000);
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
export async function redispatchStalled(ds: DatabaseSource, opts: { afterMs: number; limit: number }): Promise<number> {
  return databaseOf(ds).transaction(async (m) => {
    const rows = await markStalledRedispatched(m, opts.afterMs, opts.limit);
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
    ...(r.cover_media_id && { coverMediaId: r.cover_media_id }),
    platformMeta: r.platform_meta,
    scheduledTime: new Date(r.scheduled_time!).toISOString(),
    dispatchedAt: new Date(r.dispatched_at!).toISOString(),
    ...(r.first_comment && { firstComment: r.first_comment.text }),
    ...(r.thread?.length && { thread: r.thread.map((part) => part.text) }),
  });
}

/** When the earliest post not yet dispatched is due (null when none waits). */
export function nextDueTime(ds: DatabaseSource): Promise<Date | null> {
  return earliestUndispatched(databaseOf(ds));
}
