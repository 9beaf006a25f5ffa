import type { RequestHandler } from 'express';
import { AppError, type Principal } from '@postbus/contracts';
import type { Logger } from '@postbus/kit';

/** The one thing the limiter needs of PostgreSQL (a DataSource fits). */
export interface SqlPort {
  query(sql: string, params?: unknown[]): Promise<any[]>;
}

export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends and the count starts again. */
  resetMs: number;
}

/**
 * Counts requests per API key in the gateway's own schema, shared by every replica: one atomic
 * UPSERT per request on one row per key. A window opens at a key's first request and lasts
 * `windowMs`; the database's clock decides, so replicas with skewed clocks agree.
 */
export class PgRateLimitStore {
  constructor(
    private readonly db: SqlPort,
    private readonly windowMs = 60_000,
  ) {}

  /** Counts `n` requests of the key (a lease of several at once, see LeasingRateLimitStore). */
  async hit(key: string, n = 1): Promise<WindowCount> {
    // A busy key's row is locked from its update to its commit. The commit does not wait for the
    // WAL to reach disk (synchronous_commit off for this statement's own transaction): the lock is
    // held microseconds instead of a disk flush, and a database crash can only forget the last
    // few counts, which a limit of requests per minute can afford.
    const [row] = await this.db.query(
      `WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true))
       INSERT INTO rate_limits AS r (key, window_start, count) SELECT $1, now(), $3::int FROM relaxed
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN r.window_start > now() - $2 * interval '1 millisecond' THEN r.count + $3::int ELSE $3::int END,
         window_start = CASE WHEN r.window_start > now() - $2 * interval '1 millisecond' THEN r.window_start ELSE now() END
       RETURNING count, greatest(0, ceil(extract(epoch FROM (window_start + $2 * interval '1 millisecond' - now())) * 1000))::int AS reset_ms`,
      [key, this.windowMs, n],
    );
    return { count: Number(row.count), resetMs: Number(row.reset_ms) };
  }
}

/**
 * Per-key rate limit after authentication. Every answer carries RateLimit-Limit, -Remaining and
 * -Reset (seconds); over the limit the request stops with 429 rate_limited and Retry-After.
 * A limit of 0 turns it off. When the counter cannot be reached the request goes through:
 * a database hiccup should not take the API down with it.
 */
export function rateLimit(store: Pick<PgRateLimitStore, 'hit'>, opts: { limit: number; logger: Logger }): RequestHandler {
  return async (req, res, next) => {
    const principal = req.user as Principal | undefined;
    if (!opts.limit || !principal) return next();
    let window: WindowCount;
    try {
      window = await store.hit(`${principal.credential.type}:${principal.credential.id}`);
    } catch (err) {
      opts.logger.warn('rate limit counter unavailable; request let through', { err: (err as Error).message });
      return next();
    }
    const resetSeconds = Math.max(1, Math.ceil(window.resetMs / 1000));
    res.setHeader('RateLimit-Limit', String(opts.limit));
    res.setHeader('RateLimit-Remaining', String(Math.max(0, opts.limit - window.count)));
    res.setHeader('RateLimit-Reset', String(resetSeconds));
    if (window.count > opts.limit) {
      res.setHeader('Retry-After', String(resetSeconds));
      return next(new AppError('rate_limited', `This key made more than ${opts.limit} requests in a minute; retry after ${resetSeconds} s.`));
    }
    next();
  };
}
