import type { PlatformThrottle } from '@postbus/platforms';
import type { DataSource } from 'typeorm';

/** A throttle still running for some key of a post's profile. */
export interface HeldThrottle {
  kind: PlatformThrottle['kind'];
  waitMs: number;
  reason: string;
}

/**
 * The platforms' throttles as every publisher process sees them (`platform_throttles`): a post
 * that meets one records until when its app or account should be left alone, and posts for the
 * same app or account wait that long instead of calling the platform again.
 */
export class ThrottleRepository {
  constructor(private readonly ds: DataSource) {}

  /** The longest throttle still running for any of `keys`, or null. */
  async held(keys: string[]): Promise<HeldThrottle | null> {
    const rows: { key: string; wait_ms: string; reason: string | null }[] = await this.ds.query(
      `SELECT key, ceil(EXTRACT(EPOCH FROM (until - now())) * 1000)::bigint AS wait_ms, reason
       FROM platform_throttles WHERE key = ANY($1) AND until > now() ORDER BY until DESC LIMIT 1`,
      [keys],
    );
    const waitMs = Number(rows[0]?.wait_ms ?? 0);
    if (!(waitMs > 0)) return null;
    return {
      kind: rows[0].key.endsWith(':publishing_quota') ? 'publishing_quota' : 'rate_limit',
      waitMs,
      reason: rows[0].reason ?? '',
    };
  }

  /**
   * Counts a throttle met now and answers how many in a row this is: one met while an earlier
   * wait still runs is the same throttle (posts already in flight meet it too), one met within
   * `repeatWithinMs` after the last wait ended is one more, anything later starts over.
   */
  async strike(key: string, reason: string, repeatWithinMs: number): Promise<number> {
    const [row]: { strikes: number }[] = await this.ds.query(
      `INSERT INTO platform_throttles AS t (key, until, strikes, reason) VALUES ($1, now(), 1, $2)
       ON CONFLICT (key) DO UPDATE SET
         strikes = CASE WHEN t.until > now() THEN t.strikes
                        WHEN t.until > now() - $3::bigint * interval '1 millisecond' THEN t.strikes + 1
                        ELSE 1 END,
         reason = $2, updated_at = now()
       RETURNING strikes`,
      [key, reason, repeatWithinMs],
    );
    return Number(row.strikes);
  }

  /** Holds the key back for at least `delayMs` from now (never shortens a longer hold). */
  async hold(key: string, delayMs: number): Promise<void> {
    await this.ds.query(
      `UPDATE platform_throttles SET until = GREATEST(until, now() + $2::bigint * interval '1 millisecond'), updated_at = now() WHERE key = $1`,
      [key, Math.round(delayMs)],
    );
  }
}
