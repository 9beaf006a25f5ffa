import type { Platform } from '@postbus/contracts';

export interface PlatformErrorInit {
  platform: Platform;
  /** True when the same call may succeed later (throttling, 5xx, network): retry with backoff. */
  transient: boolean;
  /** The platform's own error code (Meta `error.code`), or one of ours such as `network_error`, `timeout`, `text_too_long`. */
  code?: string | number;
  /** The platform's error subcode when it sent one (Meta `error_subcode`). */
  subcode?: number;
  /** How long the platform asked us to wait before trying again. */
  retryAfterMs?: number;
  /** HTTP status of the platform's answer, when there was one. */
  status?: number;
  /** The platform-side object created before the failure (e.g. a Threads container), so a later attempt can resolve it. */
  containerId?: string;
  /**
   * True when the call that publishes may have reached the platform but no answer came back
   * (timeout, dropped connection, 5xx on the publish step): the post may or may not be live.
   * Check the container's status before trying again; never publish a new container blindly.
   */
  outcomeUnknown?: boolean;
  /** True when the platform refused the access token (expired or invalid): refreshing it once may help. */
  tokenRejected?: boolean;
  /**
   * True when the platform-side object (an Instagram container, a TikTok publish) failed for a
   * reason that may pass and can never succeed itself: nothing was published, and the retry must
   * start over with a new one instead of asking about the dead one again.
   */
  restart?: boolean;
  /** Set when the platform is throttling or its publishing quota is full: the publisher waits instead of counting an attempt. */
  throttle?: PlatformThrottle;
  cause?: unknown;
}

/**
 * A refusal that says "not now": too many calls in the platform's rolling window (Meta codes
 * 4, 17, 32, 613, 80000–80014) or no publishing slot left (Instagram content_publishing_limit).
 */
export interface PlatformThrottle {
  /** `rate_limit`: too many API calls; `publishing_quota`: too many posts in the window. */
  kind: 'rate_limit' | 'publishing_quota';
  /** `app`: every profile of the platform waits (the app's budget); `account`: only this profile. */
  scope: 'app' | 'account';
  /** When the platform said access returns (Retry-After, `estimated_time_to_regain_access`). */
  waitMs?: number;
  /** The highest usage percentage the platform reported (`X-App-Usage` and its kin); 100 means the budget is spent. */
  usagePct?: number;
  /** The platform's rolling window, when known (Instagram's `quota_duration`). */
  windowMs?: number;
  /** Posts the window allows, when known (Instagram's `quota_total`). */
  quotaTotal?: number;
}

/**
 * The one error type of every platform client. `message` is a sentence a person can act on
 * (it becomes the post's `failedReason`); `transient` tells the publisher to retry or give up.
 */
export class PlatformError extends Error {
  readonly platform: Platform;
  readonly transient: boolean;
  readonly code?: string | number;
  readonly subcode?: number;
  readonly retryAfterMs?: number;
  readonly status?: number;
  readonly containerId?: string;
  readonly outcomeUnknown: boolean;
  readonly tokenRejected: boolean;
  readonly restart: boolean;
  readonly throttle?: PlatformThrottle;

  constructor(message: string, init: PlatformErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'PlatformError';
    this.platform = init.platform;
    this.transient = init.transient;
    this.code = init.code;
    this.subcode = init.subcode;
    this.retryAfterMs = init.retryAfterMs;
    this.status = init.status;
    this.containerId = init.containerId;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    this.tokenRejected = init.tokenRejected ?? false;
    this.restart = init.restart ?? false;
    this.throttle = init.throttle;
  }

  /** A copy carrying extra context (e.g. the container id once it is known). */
  with(extra: Partial<Pick<PlatformErrorInit, 'containerId' | 'outcomeUnknown'>>): PlatformError {
    return new PlatformError(this.message, {
      platform: this.platform,
      transient: this.transient,
      code: this.code,
      subcode: this.subcode,
      retryAfterMs: this.retryAfterMs,
      status: this.status,
      containerId: extra.containerId ?? this.containerId,
      outcomeUnknown: extra.outcomeUnknown ?? this.outcomeUnknown,
      tokenRejected: this.tokenRejected,
      restart: this.restart,
      throttle: this.throttle,
      cause: this.cause,
    });
  }
}

export function isPlatformError(err: unknown): err is PlatformError {
  return err instanceof PlatformError;
}
