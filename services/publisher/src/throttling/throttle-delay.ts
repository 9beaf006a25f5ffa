import type { PlatformThrottle } from '@postbus/platforms';

/** How long posts wait on a platform's throttle: a floor, a ceiling per wait, and a limit on the waiting in all. */
export interface ThrottlePolicy {
  minMs: number;
  maxMs: number;
  giveUpMs: number;
}

/** The usage a wait aims to bring a budget back under, leaving room for the calls a publish makes. */
const TARGET_PCT = 90;
/** When the platform does not say: Meta's rolling hour for calls, Instagram's 24 hours for posts. */
const DEFAULT_RATE_WINDOW_MS = 3_600_000;
const DEFAULT_QUOTA_WINDOW_MS = 86_400_000;
/** Slots assumed in a publishing window the platform did not describe. */
const DEFAULT_QUOTA_SLOTS = 24;

/**
 * The wait before a throttled post is tried again, `strikes` being how many throttles in a row
 * the app or account met (1 = the first):
 * - the platform's own estimate (`estimated_time_to_regain_access`, Retry-After) when it gave one;
 * - else, for calls, the time a rolling window needs to bring the reported usage under 90 %
 *   (calls spread evenly: at 150 % that is 40 % of the window), doubled per strike;
 * - else, for a full publishing quota, the window shared among its slots, doubled per strike;
 * - else the floor, doubled per strike;
 * always within [minMs, maxMs], plus up to 10 % so waiting posts do not return all at once.
 */
export function throttleDelayMs(
  throttle: PlatformThrottle,
  strikes: number,
  policy: ThrottlePolicy,
  random: () => number = Math.random,
): number {
  const growth = 2 ** Math.min(16, Math.max(0, strikes - 1));
  let base: number;
  if (throttle.waitMs !== undefined) base = throttle.waitMs;
  else if (throttle.kind === 'publishing_quota')
    base =
      ((throttle.windowMs ?? DEFAULT_QUOTA_WINDOW_MS) / Math.max(1, throttle.quotaTotal ?? DEFAULT_QUOTA_SLOTS)) *
      growth;
  else if (throttle.usagePct !== undefined && throttle.usagePct > TARGET_PCT)
    base = (throttle.windowMs ?? DEFAULT_RATE_WINDOW_MS) * (1 - TARGET_PCT / throttle.usagePct) * growth;
  else base = policy.minMs * growth;
  const bounded = Math.min(policy.maxMs, Math.max(policy.minMs, base));
  return Math.round(Math.min(policy.maxMs, bounded * (1 + random() * 0.1)));
}

/** Where a throttle is remembered: the platform's app (every profile waits) or one profile's account. */
export function throttleKey(
  platform: string,
  profileId: string,
  throttle: Pick<PlatformThrottle, 'kind' | 'scope'>,
): string {
  return throttle.scope === 'app' ? `${platform}:app` : `${platform}:${profileId}:${throttle.kind}`;
}

/** Every key whose throttle holds back a post of this profile. */
export function throttleKeysFor(platform: string, profileId: string): string[] {
  return [`${platform}:app`, `${platform}:${profileId}:rate_limit`, `${platform}:${profileId}:publishing_quota`];
}
