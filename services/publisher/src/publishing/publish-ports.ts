import type { PostDue } from '@postbus/contracts';
import type { Logger } from '@postbus/kit';
import type { AttemptRepository } from '../attempts/attempt.repository';
import type { Credentials } from '../credentials/credentials.port';
import type { MediaLookup } from '../media/fresh-media-url';
import type { RateLimiter } from '../rate-limits/rate-limiter';
import type { BackoffPolicy } from '../scheduling/backoff';
import type { ThrottlePolicy } from '../throttling/throttle-delay';
import type { ThrottleRepository } from '../throttling/throttle.repository';
import type { FollowUpScheduler } from '../scheduling/follow-up.scheduler';
import type { WorkerRegistry } from '../workers/worker-registry';
import type { PlatformAdapter } from './adapters/platform-adapter';

/** How hard the pipeline tries and how long it waits. */
export interface PublishPolicy {
  /** Platform attempts per post; the last transient failure ends in failed + a dead letter. */
  maxAttempts: number;
  backoff: BackoffPolicy;
  /** First delay between status checks of processing media, and the most it grows to. */
  pollIntervalMs: number;
  pollMaxIntervalMs: number;
  /** How long a platform may keep media processing before the post fails. */
  processingTimeoutMs: number;
  /** A follow-up this late is presumed lost; the next delivery of the post takes over. */
  followUpGraceMs: number;
  /** Waits on platform throttling (Meta rate limits, Instagram's publishing quota): deferrals, not attempts. */
  throttle: ThrottlePolicy;
}

/** Why a post was put off without an attempt being counted. */
export type DeferralCause = 'rate_limit' | 'throttle' | 'publishing_quota';

export interface PublishPorts {
  attempts: AttemptRepository;
  credentials: { get(job: PostDue): Promise<Credentials>; refresh(job: PostDue): Promise<Credentials> };
  /** A fresh serve URL for the post's stored media (absent: the stored URLs are used as they are). */
  media?: {
    lookup(job: PostDue): Promise<MediaLookup | undefined>;
    /** A fresh serve URL of the post's cover frame; undefined when it has none or it cannot be had (the post goes out without it). */
    coverUrl?(job: PostDue): Promise<string | undefined>;
  };
  adapters: Partial<Record<string, PlatformAdapter>>;
  rateLimiter: RateLimiter;
  /** Platform throttles every publisher process knows of. */
  throttles: ThrottleRepository;
  followUps: FollowUpScheduler;
  worker: WorkerRegistry;
  policy: PublishPolicy;
  logger: Logger;
  /** Called after an outcome was committed to the outbox. */
  announced(): void;
  /** Called when a post is put off (the metric of deferrals). */
  deferred(platform: string, cause: DeferralCause): void;
}
