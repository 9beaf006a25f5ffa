/** When attempts happen and when an endpoint has failed long enough to stop: plain rules, no I/O. */
export interface DeliveryPolicy {
  /** Delay before each retry, after the first attempt; its length bounds the retries. */
  retryScheduleMs: number[];
  /** A run of failures this long disables the endpoint. */
  disableAfterMs: number;
}

/**
 * The time of the next attempt after a failed one, or null when the delivery has failed for good:
 * attempt n (1-based) of the automatic series is followed by a retry `schedule[n-1]` later; a manual
 * retry is a single attempt.
 */
export function nextAttemptAfterFailure(
  policy: DeliveryPolicy,
  attemptNo: number,
  singleAttempt: boolean,
  failedAt: Date,
): Date | null {
  if (singleAttempt || attemptNo > policy.retryScheduleMs.length) return null;
  return new Date(failedAt.getTime() + policy.retryScheduleMs[attemptNo - 1]);
}

/** True when every attempt since `failingSince` failed and that run has lasted the policy's limit. */
export function failedLongEnough(policy: DeliveryPolicy, failingSince: Date, now: Date): boolean {
  return now.getTime() - failingSince.getTime() >= policy.disableAfterMs;
}

/** Why the endpoint was disabled, in words a person can act on. */
export function disabledReason(policy: DeliveryPolicy, failingSince: Date, lastError: string): string {
  const hours = policy.disableAfterMs / 3600_000;
  const span = hours >= 1 ? `${Number(hours.toFixed(1))} hours` : `${Math.round(policy.disableAfterMs / 1000)} seconds`;
  return `Every delivery failed for ${span} (since ${failingSince.toISOString()}; last: ${lastError}). Fix the endpoint, then resume it with PATCH {"enabled": true}.`;
}
