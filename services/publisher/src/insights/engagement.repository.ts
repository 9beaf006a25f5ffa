import type { DataSource } from 'typeorm';
import type { PostEngagement } from '@postbus/contracts';
import type { PlatformEngagement } from '@postbus/platforms';

/** A published post whose next collection is due: `stage` indexes the offsets. */
export interface DueCollection {
  postId: string;
  accountId: string;
  profileId: string;
  platform: string;
  platformPostId: string;
  stage: number;
}

interface FiguresRow {
  post_id: string;
  platform: string;
  views: string | null;
  likes: string | null;
  comments: string | null;
  shares: string | null;
  collected_at: Date;
  stage: number;
}

const count = (v: string | null) => (v === null ? null : Number(v));

/**
 * Engagement figures per post and collection stage, beside the attempt log that says which posts
 * were published, when, and under which platform id.
 */
export class EngagementRepository {
  constructor(private readonly ds: DataSource) {}

  /**
   * Published posts past an offset whose latest due stage has no collection yet (a stage missed
   * while nothing ran is skipped for the later one), oldest first.
   */
  async due(offsetsMs: number[], limit: number): Promise<DueCollection[]> {
    return this.ds.query(
      `SELECT a.post_id AS "postId", a.account_id AS "accountId", a.profile_id AS "profileId", a.platform, a.platform_post_id AS "platformPostId", d.stage
         FROM attempts a
         CROSS JOIN LATERAL (
           SELECT (max(s.ord) - 1)::int AS stage FROM unnest($1::bigint[]) WITH ORDINALITY AS s(ms, ord)
            WHERE a.finished_at + s.ms * interval '1 millisecond' <= now()
         ) d
        WHERE a.state = 'published' AND a.platform_post_id IS NOT NULL AND a.finished_at <= now() - $2::bigint * interval '1 millisecond'
          AND NOT EXISTS (SELECT 1 FROM engagement_collections c WHERE c.post_id = a.post_id AND c.stage >= d.stage)
        ORDER BY a.finished_at, a.post_id
        LIMIT $3`,
      [offsetsMs, offsetsMs[0], limit],
    );
  }

  /** Stores what one collection found: the figures, or why there are none (a later stage tries again). */
  async record(c: DueCollection, outcome: { figures: PlatformEngagement } | { error: string }): Promise<void> {
    const f = 'figures' in outcome ? outcome.figures : { views: null, likes: null, comments: null, shares: null };
    await this.ds.query(
      `INSERT INTO engagement_collections (post_id, stage, account_id, platform, platform_post_id, views, likes, comments, shares, error)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (post_id, stage) DO NOTHING`,
      [
        c.postId,
        c.stage,
        c.accountId,
        c.platform,
        c.platformPostId,
        f.views,
        f.likes,
        f.comments,
        f.shares,
        'error' in outcome ? outcome.error : null,
      ],
    );
  }

  /** The latest figures collected for each of these posts of the account; posts without any are left out. */
  async latest(accountId: string, postIds: string[]): Promise<PostEngagement[]> {
    if (!postIds.length) return [];
    const rows: FiguresRow[] = await this.ds.query(
      `SELECT DISTINCT ON (post_id) post_id, platform, views, likes, comments, shares, collected_at, stage
         FROM engagement_collections WHERE account_id = $1 AND post_id = ANY($2::text[]) AND error IS NULL
        ORDER BY post_id, stage DESC`,
      [accountId, postIds],
    );
    return rows.map((r) => ({
      postId: r.post_id,
      platform: r.platform,
      views: count(r.views),
      likes: count(r.likes),
      comments: count(r.comments),
      shares: count(r.shares),
      collectedAt: new Date(r.collected_at).toISOString(),
      stage: r.stage,
    }));
  }

  /**
   * Runs `work` while holding the advisory lock named `key` on a session of its own, so one
   * publisher replica runs it at a time; answers undefined, without running it, when another
   * session holds the lock.
   */
  async whileLocked<R>(key: string, work: () => Promise<R>): Promise<R | undefined> {
    const runner = this.ds.createQueryRunner();
    try {
      await runner.connect();
      const rows = (await runner.query('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked', [key])) as {
        locked: boolean;
      }[];
      if (!rows[0].locked) return undefined;
      try {
        return await work();
      } finally {
        await runner.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]);
      }
    } finally {
      await runner.release();
    }
  }
}
