import type { EventEnvelope, PostDue } from '@postbus/contracts';
import { PermanentError } from '@postbus/bus';
import { PlatformError, isMediaReadError, isPlatformError } from '@postbus/platforms';
import type { Claim, FollowUpState } from '../attempts/attempt.repository';
import { CredentialsError, type Credentials } from '../credentials/credentials.port';
import { pollDelayMs, retryDelayMs } from '../scheduling/backoff';
import type { FollowUpKind } from '../scheduling/follow-up.scheduler';
import type { Checkpoint, PlatformAdapter, PublishContext, Published, Waiting } from './adapters/platform-adapter';
import {
  DISCONNECTED_REASON,
  credentialsUnavailableReason,
  MEDIA_GONE_REASON,
  gaveUpReason,
  platformName,
  reconnectReason,
  stillProcessingReason,
  unknownOutcomeReason,
  unsupportedPlatformReason,
} from './failure-reasons';
import type { PublishPorts } from './publish-ports';
import { throttleKeysFor } from '../throttling/throttle-delay';
import { planThrottleWait, type ThrottleCause } from '../throttling/throttle-wait';

type RunClaim = Extract<Claim, { action: 'run' }>;

interface Delivery {
  event: EventEnvelope;
  job: PostDue;
  headers: Record<string, unknown>;
}

/** The attempt moved on to another worker (it presumed us dead): whatever we were doing is theirs now. */
class OwnershipLost extends Error {}

/**
 * Takes an attempt this worker owns as far as it can go now: settles an unknown outcome with
 * the platform first, respects the profile's rate limits, runs the platform adapter, and ends
 * in an outcome (published / failed) or a scheduled follow-up (processing check, retry with
 * backoff, deferral). The worker slot is never held while waiting.
 */
export async function advanceAttempt(ports: PublishPorts, delivery: Delivery, claim: RunClaim): Promise<void> {
  const { job } = delivery;
  const { fence, mode } = claim;
  const row = { ...claim.row };
  const { attempts, policy, logger } = ports;

  const fail = async (reason: string, opts: { exhausted?: boolean } = {}) => {
    if (await attempts.finishFailed(job, fence, reason, opts)) {
      ports.announced();
      logger.info('post failed', { postId: job.postId, platform: job.platform, reason, attempts: row.tries });
    }
  };
  const finish = async (r: Published) => {
    if (await attempts.finishPublished(job, fence, r)) {
      ports.announced();
      logger.info('post published', { postId: job.postId, platform: job.platform, attempts: row.tries });
    }
  };
  const followUp = async (kind: FollowUpKind, next: Omit<FollowUpState, 'nextAt'>, delayMs: number, lastError?: string) => {
    // The follow-up is sent before the hand-off commits: if we die in between, the attempt is
    // still ours-in-flight and whoever comes next recovers it; the reverse order could lose it.
    await ports.followUps.schedule(delivery.event, { kind, seq: fence.seq + 1, delayMs, headers: delivery.headers });
    await attempts.handOff(job.postId, fence, { ...next, nextAt: new Date(Date.now() + delayMs) }, lastError);
  };

  const adapter: PlatformAdapter | undefined = ports.adapters[job.platform];
  if (!adapter) return fail(unsupportedPlatformReason(job.platform));
  const rateBuckets = [job.platform, ...(adapter.rateBuckets?.(job) ?? [])];
  /** Whether this run holds rate-limit slots it took itself (handed back if the platform throttles the post). */
  let slotsTaken = false;
  /** The latest saved progress, whatever happens next. */
  let progress: Checkpoint = row.checkpoint ?? {};

  let creds: Credentials;
  try {
    creds = await ports.credentials.get(job);
  } catch (err) {
    if (!(err instanceof CredentialsError)) throw err;
    if (err.problem.kind === 'disconnected') return fail(DISCONNECTED_REASON);
    if (err.problem.kind === 'refused') return fail(`The profile's credentials could not be read: ${err.message}`);
    return onError(new PlatformError(credentialsUnavailableReason(job.platform), { platform: job.platform as never, transient: true, code: 'credentials_unavailable' }));
  }
  if (creds.status !== 'active') return fail(reconnectReason(job.platform, creds.handle));

  const media = await ports.media?.lookup(job);
  if (media?.kind === 'gone') return fail(MEDIA_GONE_REASON);
  if (media?.kind === 'unavailable') return onError(new PlatformError(`The media service could not give a link to the post's media (${media.message}); publishing will be tried again.`, { platform: job.platform as never, transient: true, code: 'media_unavailable' }));
  if (media?.kind === 'url' && job.mediaUrls.length) job.mediaUrls[0] = media.url;

  const ctx: PublishContext = {
    job,
    creds,
    checkpoint: progress,
    async save(checkpoint: Checkpoint) {
      ctx.progress(checkpoint);
      if (!(await attempts.saveCheckpoint(job.postId, fence, checkpoint))) throw new OwnershipLost();
    },
    progress(checkpoint: Checkpoint) {
      ctx.checkpoint = checkpoint;
      progress = checkpoint;
    },
  };

  /** An expired token gets one refresh through connections per post, then the call is tried once more. */
  const withFreshToken = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (err) {
      if (!(isPlatformError(err) && err.tokenRejected) || row.refreshed) throw err;
      ctx.creds = await refreshCredentials(ports, job, err);
      row.refreshed = true;
      await attempts.markRefreshed(job.postId, fence);
      logger.info('token refreshed after the platform refused it', { postId: job.postId, platform: job.platform });
      return call();
    }
  };

  try {
    if (ctx.checkpoint.phase === 'publishing') {
      const resolution = await withFreshToken(() => adapter.resolve(ctx));
      if (resolution.kind === 'published') return await finish(resolution);
      if (resolution.kind === 'unknown') return await fail(unknownOutcomeReason(job.platform));
      logger.info('unknown outcome resolved: not published yet, continuing', { postId: job.postId, platform: job.platform });
      await ctx.save(resolution.checkpoint);
    }
    if (mode !== 'check' && Object.keys(ctx.checkpoint).length === 0) {
      // a fresh post took its slots when it was claimed; a retry starting over takes them now
      const decision = claim.rate ?? (await ports.rateLimiter.take(job.profileId, rateBuckets));
      if (!decision.ok) {
        const delay = decision.retryInMs * (1 + Math.random() * 0.1);
        logger.info('publishing deferred by the rate limit', { postId: job.postId, platform: job.platform, delayMs: Math.round(delay) });
        ports.deferred(job.platform, 'rate_limit');
        return await followUp('defer', { state: 'retry', checkpoint: null, uncount: true }, delay);
      }
      slotsTaken = true;
    }
    if (mode !== 'check') {
      // a throttle another post met for this app or account holds this one back too, without calling the platform
      const held = await ports.throttles.held(throttleKeysFor(job.platform, job.profileId));
      if (held) return await waitOnThrottle({ kind: 'held', held }, ctx.checkpoint);
    }
    const result = await withFreshToken(() => adapter.run(ctx));
    if (result.kind === 'published') return await finish(result);
    return await waitForProcessing(result);
  } catch (err) {
    return onError(err);
  }

  async function waitForProcessing(waiting: Waiting): Promise<void> {
    const since = row.processing_since ? new Date(row.processing_since) : new Date();
    const waited = Date.now() - since.getTime();
    if (!waiting.checkpoint.live && waited >= policy.processingTimeoutMs) return fail(stillProcessingReason(waiting.what, waited));
    const delay = pollDelayMs(policy.pollIntervalMs, policy.pollMaxIntervalMs, row.checks);
    logger.debug('platform still processing; check scheduled', { postId: job.postId, delayMs: delay });
    return followUp('check', { state: 'waiting', checkpoint: waiting.checkpoint, processingSince: since, checks: row.checks + 1 }, delay);
  }

  /** A throttle is waited out and never counts as an attempt; the post's slots go back unless it keeps platform-side progress. */
  async function waitOnThrottle(cause: ThrottleCause, checkpoint: Checkpoint): Promise<void> {
    const decision = await planThrottleWait({ attempts, throttles: ports.throttles, policy: policy.throttle }, job, fence, cause);
    if (decision.kind === 'lost') return;
    if (decision.kind === 'give_up') {
      await fail(decision.reason, { exhausted: true });
      throw new PermanentError(`gave up waiting on a platform throttle: ${decision.reason}`);
    }
    const keep = Object.keys(checkpoint).length > 0;
    if (slotsTaken && !keep) await ports.rateLimiter.giveBack(job.profileId, rateBuckets);
    const kind = cause.kind === 'met' ? cause.throttle.kind : cause.held.kind;
    const reason = cause.kind === 'met' ? cause.reason : cause.held.reason;
    ports.deferred(job.platform, kind === 'publishing_quota' ? 'publishing_quota' : 'throttle');
    logger.info('publishing deferred: the platform is throttling', { postId: job.postId, platform: job.platform, cause: kind, delayMs: decision.delayMs, reason });
    // a status check counted no try, so it has none to hand back
    return followUp('defer', { state: 'retry', checkpoint: keep ? checkpoint : null, uncount: mode !== 'check' }, decision.delayMs, reason);
  }

  async function onError(err: unknown): Promise<void> {
    if (err instanceof OwnershipLost) {
      logger.warn('attempt taken over by another worker; stopping', { postId: job.postId });
      return;
    }
    if (!isPlatformError(err)) throw err; // our own trouble (database, broker): the bus redelivers and the attempt is recovered
    // A platform object that failed for good (a container in ERROR) is dropped: the retry makes a new one, never asks it again.
    const checkpoint: Checkpoint = err.restart ? {} : progress;
    if (!err.transient) return fail(err.message);

    const processing = mode === 'check' && !err.outcomeUnknown && !err.restart && checkpoint.phase !== 'publishing';
    if (processing && row.processing_since) {
      // A failed status check is not a failed attempt: check again, bounded by the processing ceiling.
      return waitForProcessing({ kind: 'waiting', checkpoint, what: `${platformName(job.platform)} could not be asked about the media` });
    }
    if (err.throttle) return waitOnThrottle({ kind: 'met', throttle: err.throttle, reason: err.message }, checkpoint);
    if (row.tries >= policy.maxAttempts) {
      // Media that could not be read never finished the call that publishes (an unfinished upload publishes nothing): say so.
      const reason = checkpoint.phase === 'publishing' && !isMediaReadError(err) ? unknownOutcomeReason(job.platform) : gaveUpReason(err.message, row.tries);
      await fail(reason, { exhausted: true });
      // The bus parks this delivery in the dead-letter queue, where an operator can read why.
      throw new PermanentError(`gave up after ${row.tries} attempts: ${err.message}`);
    }
    const delay = retryDelayMs(policy.backoff, Math.max(1, row.tries), err.retryAfterMs);
    logger.info('publish failed transiently; retry scheduled', { postId: job.postId, platform: job.platform, attempt: row.tries, delayMs: delay, reason: err.message });
    return followUp('retry', { state: 'retry', checkpoint: Object.keys(checkpoint).length ? checkpoint : null }, delay, err.message);
  }
}

/** New credentials from connections after the platform refused the token; a refusal to refresh fails the post with the platform's reason. */
async function refreshCredentials(ports: PublishPorts, job: PostDue, refused: PlatformError): Promise<Credentials> {
  let fresh: Credentials;
  try {
    fresh = await ports.credentials.refresh(job);
  } catch (err) {
    if (err instanceof CredentialsError && err.problem.kind === 'unavailable') {
      throw new PlatformError(`${refused.message.replace(/[.;]\s*$/, '')}, and connections could not refresh it right now; publishing will be tried again.`, {
        platform: refused.platform,
        transient: true,
        code: 'token_refresh_unavailable',
      });
    }
    throw new PlatformError(refused.message, { platform: refused.platform, transient: false, code: refused.code });
  }
  if (fresh.status !== 'active') throw new PlatformError(refused.message, { platform: refused.platform, transient: false, code: refused.code });
  return fresh;
}
