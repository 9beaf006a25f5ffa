import type { DataSource } from 'typeorm';
import type { AnalyticsGroup } from '@postbus/contracts';

/** The grouping key of a post, as SQL over the posts table (a fixed list: never built from input). */
const KEY_SQL: Record<AnalyticsGroup | 'none', string> = {
  none: 'NULL::text',
  platform: 'platform',
  profile: 'profile_id',
  category: 'category',
  day: `to_char(scheduled_time AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
};

/** Posts due in the range that entered the pipeline, or were cancelled before they left, on the profiles the caller may see. */
const IN_RANGE = `account_id = $1 AND scheduled_time >= $2 AND scheduled_time < $3 AND status IN ('scheduled', 'posted', 'failed', 'cancelled')
  AND ($4::text[] IS NULL OR profile_id = ANY($4::text[]))`;

export interface StatusFigures {
  key: string | null;
  scheduled: number;
  posted: number;
  failed: number;
  pending: number;
  cancelled: number;
  dispatched: number;
  medianLagMs: number | null;
  p95LagMs: number | null;
}

export interface FailureReasonCount {
  key: string | null;
  reason: string;
  count: number;
}

export interface Range {
  accountId: string;
  /** The caller's profile restriction (undefined: every profile of the account). */
  profileIds?: string[];
  from: Date;
  to: Date;
  group: AnalyticsGroup | 'none';
}

/** Aggregates over the posts table for analytics; every query is filtered by the account. */
export class AnalyticsRepository {
  constructor(private readonly ds: DataSource) {}

  /** Counts and dispatch lag (dispatched_at − scheduled_time) per key. */
  async statusFigures(r: Range): Promise<StatusFigures[]> {
    const rows: (Omit<StatusFigures, 'medianLagMs' | 'p95LagMs'> & {
      median_ms: number | null;
      p95_ms: number | null;
    })[] = await this.ds.query(
      `SELECT ${KEY_SQL[r.group]} AS key,
              count(*) FILTER (WHERE status IN ('scheduled', 'posted', 'failed'))::int AS scheduled,
              count(*) FILTER (WHERE status = 'posted')::int AS posted,
              count(*) FILTER (WHERE status = 'failed')::int AS failed,
              count(*) FILTER (WHERE status = 'scheduled')::int AS pending,
              count(*) FILTER (WHERE status = 'cancelled')::int AS cancelled,
              count(dispatched_at)::int AS dispatched,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY (extract(epoch FROM dispatched_at - scheduled_time) * 1000)::float8) FILTER (WHERE dispatched_at IS NOT NULL) AS median_ms,
              percentile_cont(0.95) WITHIN GROUP (ORDER BY (extract(epoch FROM dispatched_at - scheduled_time) * 1000)::float8) FILTER (WHERE dispatched_at IS NOT NULL) AS p95_ms
         FROM posts WHERE ${IN_RANGE}
        GROUP BY 1 ORDER BY 1 NULLS LAST`,
      [r.accountId, r.from, r.to, r.profileIds ?? null],
    );
    return rows.map(({ median_ms, p95_ms, ...counts }) => ({
      ...counts,
      medianLagMs: roundOrNull(median_ms),
      p95LagMs: roundOrNull(p95_ms),
    }));
  }

  /** How often each failure reason occurred, per key, most frequent first. */
  async failureReasons(r: Range): Promise<FailureReasonCount[]> {
    return this.ds.query(
      `SELECT ${KEY_SQL[r.group]} AS key, coalesce(failed_reason, 'No reason was recorded.') AS reason, count(*)::int AS count
         FROM posts WHERE ${IN_RANGE} AND status = 'failed'
        GROUP BY 1, 2 ORDER BY count DESC, reason`,
      [r.accountId, r.from, r.to, r.profileIds ?? null],
    );
  }

  /** A profile's published posts since `since` with the instant each went out, newest first, at most `limit`. */
  async publishedOfProfile(
    accountId: string,
    profileId: string,
    since: Date,
    limit: number,
  ): Promise<{ id: string; publishedAt: Date }[]> {
    const rows: { id: string; published_at: Date }[] = await this.ds.query(
      `SELECT id, coalesce(published_at, scheduled_time) AS published_at FROM posts
        WHERE account_id = $1 AND profile_id = $2 AND status = 'posted' AND coalesce(published_at, scheduled_time) >= $3
        ORDER BY published_at DESC LIMIT $4`,
      [accountId, profileId, since, limit],
    );
    return rows.map((r) => ({ id: r.id, publishedAt: new Date(r.published_at) }));
  }

  /** Published posts in the range with their key, whose engagement the publisher collects. */
  async postedPosts(r: Range): Promise<{ id: string; key: string | null }[]> {
    return this.ds.query(
      `SELECT id, ${KEY_SQL[r.group]} AS key FROM posts WHERE ${IN_RANGE} AND status = 'posted' ORDER BY id`,
      [r.accountId, r.from, r.to, r.profileIds ?? null],
    );
  }
}

function roundOrNull(value: number | string | null): number | null {
  return value === null ? null : Math.round(Number(value));
}
