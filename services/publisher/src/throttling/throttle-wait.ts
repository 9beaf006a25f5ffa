import type { PostDue } from '@postbus/contracts';
import type { PlatformThrottle } from '@postbus/platforms';
import type { AttemptRepository, Fence } from '../attempts/attempt.repository';
import { throttleDelayMs, throttleKey, type ThrottlePolicy } from './throttle-delay';
import type { HeldThrottle, ThrottleRepository } from './throttle.repository';

/** The post met a throttle itself, or found one another post met still running for its app or account. */
export type ThrottleCause =
  { kind: 'met'; throttle: PlatformThrottle; reason: string } | { kind: 'held'; held: HeldThrottle };

export type ThrottleDecision =
  { kind: 'defer'; delayMs: number } | { kind: 'give_up'; reason: string } | { kind: 'lost' };

export interface ThrottlePorts {
  attempts: Pick<AttemptRepository, 'markThrottled'>;
  throttles: ThrottleRepository;
  policy: ThrottlePolicy;
}

/** Stored reasons are platform sentences; a bounded copy is enough to explain a wait. */
const MAX_REASON_CHARS = 500;

/**
 * How long the post waits on a throttle, or that it waited long enough: the wait in all is
 * bounded by `giveUpMs` (counted from the post's first throttle); a throttle met is remembered
 * for its app or account, so that every post for them waits too.
 */
export async function planThrottleWait(
  ports: ThrottlePorts,
  job: PostDue,
  fence: Fence,
  cause: ThrottleCause,
): Promise<ThrottleDecision> {
  const waited = await ports.attempts.markThrottled(job.postId, fence);
  if (waited === null) return { kind: 'lost' };
  const { policy } = ports;
  const reason = cause.kind === 'met' ? cause.reason : cause.held.reason;
  if (waited >= policy.giveUpMs) return { kind: 'give_up', reason: throttleGaveUpReason(reason, waited) };
  let delay: number;
  if (cause.kind === 'met') {
    const key = throttleKey(job.platform, job.profileId, cause.throttle);
    const strikes = await ports.throttles.strike(
      key,
      reason.slice(0, MAX_REASON_CHARS),
      cause.throttle.windowMs ?? 3_600_000,
    );
    delay = throttleDelayMs(cause.throttle, strikes, policy);
    await ports.throttles.hold(key, delay);
  } else {
    // no longer than one wait (the post looks again), spread so waiting posts do not all call the moment it ends
    delay = Math.min(policy.maxMs, cause.held.waitMs * (1 + Math.random() * 0.1));
  }
  return { kind: 'defer', delayMs: Math.round(Math.max(1, Math.min(delay, policy.giveUpMs - waited))) };
}

/** "Instagram is limiting …; publishing will be tried again later." → "Instagram is limiting …. Postbus waited 24 hours …" */
export function throttleGaveUpReason(message: string, waitedMs: number): string {
  const base =
    message.replace(/[;,]?\s*publishing (will be tried again|waits)[^.]*\.?$/i, '').replace(/[.;,\s]+$/, '') ||
    'The platform kept limiting calls';
  return `${base}. Postbus waited ${formatDuration(waitedMs)} for the platform's limit to lift, then stopped; publish the post again later.`;
}

function formatDuration(ms: number): string {
  if (ms < 120_000) return `${Math.round(ms / 1000)} seconds`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} minutes`;
  return `${Math.round(ms / 3_600_000)} hours`;
}
