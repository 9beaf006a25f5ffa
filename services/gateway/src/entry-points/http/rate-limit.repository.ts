import { databaseOf, type Database, type DatabaseSource } from '@postbus/kit';

export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends and the count starts again. */
  resetMs: number;
}

/**
 * Counts requests per key in the gateway's own schema, shared by every replica: one atomic
 * UPSERT per request on one row per key. A window opens at a key's first request and lasts
 * `windowMs` (the store's, or the one the caller names for its bucket: keys of one bucket share a
 * prefix and so always one window length); the database's clock decides, so replicas with skewed
 * clocks agree.
 */
export class PgRateLimitStore {
  private readonly db: Database;

  constructor(
    source: DatabaseSource,
    private readonly windowMs = 60_000,
  ) {
    this.db = databaseOf(source);
  }

  /** Counts `n` requests of the key (a lease of several at once, see LeasingRateLimitStore) in windows of `windowMs`. */
  async hit(key: string, n = 1, windowMs = this.windowMs): Promise<WindowCount> {
    // A busy key's row is locked from its update to its commit. The commit does not wait for the
    // WAL to reach disk (synchronous_commit off for this statement's own transaction): the lock is
    // held microseconds instead of a disk flush, and a database crash can only forget the last
    // few counts, which a limit of requests per minute can afford.
    const [row] = await this.db.query<{ count: string | number; reset_ms: string | number }>(
      `WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true))
       INSERT INTO rate_limits AS r (key, window_start, count) SELECT $1, now(), $3::int FROM relaxed
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN r.window_start > now() - $2 * interval '1 millisecond' THEN r.count + $3::int ELSE $3::int END,
         window_start = CASE WHEN r.window_start > now() - $2 * interval '1 millisecond' THEN r.window_start ELSE now() END
       RETURNING count, greatest(0, ceil(extract(epoch FROM (window_start + $2 * interval '1 millisecond' - now())) * 1000))::int AS reset_ms`,
      [key, windowMs, n],
    );
    return { count: Number(row.count), resetMs: Number(row.reset_ms) };
  }

  /**
   * Drops the rows whose window ended (`longestWindowMs` covers every bucket): such a row counts
   * as nothing already, and keys made up by the thousand would otherwise stay forever.
   */
  async forgetEnded(longestWindowMs: number): Promise<number> {
    const rows = await this.db.updateReturning(
      `DELETE FROM rate_limits WHERE window_start < now() - $1 * interval '1 millisecond' RETURNING 1`,
      [longestWindowMs],
    );
    return rows.length;
  }
}
