import type { DatabaseSource } from '@postbus/kit';
import type { RateLimitRules } from './rate-limit-rules';
import { RateSlotRepository, type RateSlotArgs } from './rate-slot.repository';

export type RateDecision = { ok: true } | { ok: false; retryInMs: number };

/**
 * Per profile and platform publishing limits shared by every publisher process: a sliding log
 * of publish starts in PostgreSQL (`rate_slots`), checked and taken by `take_rate_slots` in one
 * round trip under transaction-scoped advisory locks. Either every applicable window has room
 * and one slot is taken per key, or none is taken and the answer says when the first frees.
 */
export class RateLimiter {
  private readonly slots: RateSlotRepository;

  constructor(
    source: DatabaseSource,
    private readonly rules: RateLimitRules,
  ) {
    this.slots = new RateSlotRepository(source);
  }

  async take(profileId: string, buckets: string[]): Promise<RateDecision> {
    const args = this.slotArgs(profileId, buckets);
    if (!args) return { ok: true };
    return decision(await this.slots.take(args));
  }

  /**
   * Hands back the slots a post took when the platform then refused to take it (throttled):
   * one slot per key, the newest, so a post that waits for hours does not use up the window.
   */
  async giveBack(profileId: string, buckets: string[]): Promise<void> {
    const args = this.slotArgs(profileId, buckets);
    if (!args) return;
    await this.slots.giveBackNewest(args.keys);
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
