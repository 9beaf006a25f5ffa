import type { DataSource } from 'typeorm';
import type { RateLimitRules } from './rate-limit-rules';

export type RateDecision = { ok: true } | { ok: false; retryInMs: number };

/** The arguments of `take_rate_slots` for one post: its keys and every window that applies to them. */
export interface RateSlotArgs {
  keys: string[];
  keyOf: number[];
  limits: number[];
  windows: number[];
}

/** A post may need a slot from more than one window: all are taken in one statement, or none. */
export const TAKE_RATE_SLOTS_SQL = 'take_rate_slots($1::text[], $2::int[], $3::int[], $4::bigint[])';

/**
 * Per profile and platform publishing limits shared by every publisher process: a sliding log
 * of publish starts in PostgreSQL (`rate_slots`), checked and taken by `take_rate_slots` in one
 * round trip under transaction-scoped advisory locks. Either every applicable window has room
 * and one slot is taken per key, or none is taken and the answer says when the first frees.
 */
export class RateLimiter {
  constructor(
    private readonly ds: DataSource,
    private readonly rules: RateLimitRules,
  ) {}

  async take(profileId: string, buckets: string[]): Promise<RateDecision> {
    const args = this.slotArgs(profileId, buckets);
    if (!args) return { ok: true };
    const [row]: { wait_ms: string }[] = await this.ds.query(`SELECT ${TAKE_RATE_SLOTS_SQL} AS wait_ms`, [args.keys, args.keyOf, args.limits, args.windows]);
    return decision(row.wait_ms);
  }

  /**
   * Hands back the slots a post took when the platform then refused to take it (throttled):
   * one slot per key, the newest, so a post that waits for hours does not use up the window.
   */
  async giveBack(profileId: string, buckets: string[]): Promise<void> {
    const args = this.slotArgs(profileId, buckets);
    if (!args) return;
    await this.ds.query(
      `DELETE FROM rate_slots WHERE ctid IN (SELECT DISTINCT ON (key) ctid FROM rate_slots WHERE key = ANY($1) ORDER BY key, taken_at DESC)`,
      [args.keys],
    );
  }

  /** What `take_rate_slots` needs for this profile's buckets; null when no rule applies. */
  slotArgs(profileId: string, buckets: string[]): RateSlotArgs | null {
    const args: RateSlotArgs = { keys: [], keyOf: [], limits: [], windows: [] };
    for (const bucket of buckets) {
      const rule = this.rules[bucket];
      if (!rule?.length) continue;
      args.keys.push(`${profileId}:${bucket}`);
      for (const w of rule) {
        args.keyOf.push(args.keys.length);
        args.limits.push(w.limit);
        args.windows.push(w.windowMs);
      }
    }
    return args.keys.length ? args : null;
  }
}

export function decision(waitMs: string | number | null | undefined): RateDecision {
  const wait = Number(waitMs ?? 0);
  return wait > 0 ? { ok: false, retryInMs: wait } : { ok: true };
}
