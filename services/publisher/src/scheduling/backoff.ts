export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

/** Longest wait a platform's Retry-After may impose on one retry. */
const RETRY_AFTER_CAP_MS = 24 * 3_600_000;

/**
 * Delay before retry number `attempt` (1 = after the first failure): exponential, capped, with
 * "equal jitter" (between half and all of the step) so a burst of failures does not retry in
 * lockstep; never shorter than what the platform asked for (Retry-After, usage headers).
 */
export function retryDelayMs(
  policy: BackoffPolicy,
  attempt: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number {
  const step = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  const jittered = step / 2 + random() * (step / 2);
  return Math.round(Math.max(jittered, Math.min(retryAfterMs ?? 0, RETRY_AFTER_CAP_MS)));
}

/** Delay before status check number `check` of media still processing: grows by half each time up to `maxMs`. */
export function pollDelayMs(intervalMs: number, maxMs: number, check: number): number {
  return Math.round(Math.min(maxMs, intervalMs * 1.5 ** Math.max(0, check)));
}
