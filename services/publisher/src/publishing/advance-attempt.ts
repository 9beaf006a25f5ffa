import type { EventEnvelope, PostDue } from '@postbus/contracts';
import { PermanentError } from '@postbus/bus';
import { PlatformError, isMediaReadError, isPlatformError } from '@postbus/platforms';
import type { AttemptRow, Claim, Fence, FollowUpState } from '../attempts/attempt.repository';
import { CredentialsError, type Credentials } from '../credentials/credentials.port';
import type { RateDecision } from '../rate-limits/rate-limiter';
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
import { hasFollowUps, isFollowingUp } from './follow-ups/follow-up-plan';
import { continueFollowUps, startFollowUps } from './follow-ups/run-follow-ups';

type RunClaim = Extract<Claim, { action: 'run' }>;

interface Delivery {
  event: EventEnvelope;
  job: PostDue;
  headers: Record<string, unknown>;
}

/** The attempt moved on to another worker (it presumed us dead): whatever we were doing is theirs now. */
class OwnershipLost extends Error {}

/** An attempt this worker owns: enough to end it (published, failed) or hand it to a follow-up. */
interface Attempt {
  ports: PublishPorts;
  delivery: Delivery;
  job: PostDue;
  fence: Fence;
  mode: RunClaim['mode'];
  /** The claimed row, a copy: the run notes on it that the token refresh has been used. */
  row: AttemptRow;
}

/** One run of an attempt through its platform's adapter, and what it has learned so far. */
interface Run extends Attempt {
  adapter: PlatformAdapter;
  /** The platform's rate-limit bucket and the adapter's own (e.g. `facebook.reels`). */
  rateBuckets: string[];
  /** The rate decision a fresh claim took with it (slots already taken, or the wait until one frees). */
  claimedRate?: RateDecision;
  /** Whether this run holds rate-limit slots it took itself (handed back if the platform throttles the post). */
  slotsTaken: boolean;
  /** The latest saved progress, whatever happens next. */
  progress: Checkpoint;
}

/** Whether a step ended the run (an outcome or a scheduled follow-up) or the next step goes on. */
type Step = 'ended' | 'go_on';

/**
 * Takes an attempt this worker owns as far as it can go now: settles an unknown outcome with
 * the platform first, respects the profile's rate limits, runs the platform adapter, and ends
 * in an outcome (published / failed) or a scheduled follow-up (processing check, retry with
 * backoff, deferral). The worker slot is never held while waiting.
 */
export async function advanceAttempt(ports: PublishPorts, delivery: Delivery, claim: RunClaim): Promise<void> {
  const attempt: Attempt = {
    ports,
    delivery,
    job: delivery.job,
    fence: claim.fence,
    mode: claim.mode,
    row: { ...claim.row },
  };
  // The post is live already; what is left is its first comment or Threads chain.
  if (isFollowingUp(attempt.row.checkpoint)) return continueFollowUps(attempt, attempt.row.checkpoint);
  const adapter = ports.adapters[attempt.job.platform];
  if (!adapter) return fail(attempt, unsupportedPlatformReason(attempt.job.platform));
  const rateBuckets = [attempt.job.platform, ...(adapter.rateBuckets?.(attempt.job) ?? [])];
  const run: Run = {
    ...attempt,
    adapter,
    rateBuckets,
    claimedRate: claim.rate,
    slotsTaken: false,
    progress: attempt.row.checkpoint ?? {},
  };

  const ctx = await openContext(run);
  if (!ctx) return;
  try {
    await publish(run, ctx);
  } catch (err) {
    await onError(run, err);
  }
}

/** Credentials and media links to publish with; undefined when the run ended on the way (failed, or a retry scheduled). */
async function openContext(run: Run): Promise<PublishContext | undefined> {
  const creds = await readCredentials(run);
  if (!creds) return undefined;
  const media = await mediaFor(run);
  if (!media) return undefined;
  return publishContext(run, creds, media);
}

/** The profile's active credentials; undefined when the run ended on them. */
async function readCredentials(run: Run): Promise<Credentials | undefined> {
  const { job } = run;
  let creds: Credentials;
  try {
    creds = await run.ports.credentials.get(job);
  } catch (err) {
    if (!(err instanceof CredentialsError)) throw err;
    if (err.problem.kind === 'disconnected') await fail(run, DISCONNECTED_REASON);
    else if (err.problem.kind === 'refused')
      await fail(run, `The profile's credentials could not be read: ${err.message}`);
    else
      await onError(
        run,
        new PlatformError(credentialsUnavailableReason(job.platform), {
          platform: job.platform as never,
          transient: true,
          code: 'credentials_unavailable',
        }),
      );
    return undefined;
  }
  if (creds.status === 'active') return creds;
  await fail(run, reconnectReason(job.platform, creds.handle));
  return undefined;
}

type PublishMedia = Pick<PublishContext, 'mediaUrls' | 'storedMedia' | 'coverUrl'>;

/**
 * The links to publish from: the post's own, the first one a fresh serve URL of its stored media
 * when media gives one (the stored link may have expired), with what media knows of that file.
 * Undefined when the run ended on them.
 */
async function mediaFor(run: Run): Promise<PublishMedia | undefined> {
  const { job } = run;
  const media = await run.ports.media?.lookup(job);
  if (media?.kind === 'gone') {
    await fail(run, MEDIA_GONE_REASON);
    return undefined;
  }
  if (media?.kind === 'unavailable') {
    const message = `The media service could not give a link to the post's media (${media.message}); publishing will be tried again.`;
    await onError(
      run,
      new PlatformError(message, { platform: job.platform as never, transient: true, code: 'media_unavailable' }),
    );
    return undefined;
  }
  const coverUrl = job.coverMediaId ? await run.ports.media?.coverUrl?.(job) : undefined;
  if (media?.kind === 'url' && job.mediaUrls.length)
    return { mediaUrls: [media.url, ...job.mediaUrls.slice(1)], storedMedia: media.facts, coverUrl };
  return { mediaUrls: job.mediaUrls, storedMedia: null, coverUrl };
}

/** What the adapter works with; its progress is the run's, and a save that finds the attempt taken over stops the run. */
function publishContext(run: Run, creds: Credentials, media: PublishMedia): PublishContext {
  const ctx: PublishContext = {
    job: run.job,
    creds,
    ...media,
    checkpoint: run.progress,
    async save(checkpoint: Checkpoint) {
      ctx.progress(checkpoint);
      if (!(await run.ports.attempts.saveCheckpoint(run.job.postId, run.fence, checkpoint))) throw new OwnershipLost();
    },
    progress(checkpoint: Checkpoint) {
      ctx.checkpoint = checkpoint;
      run.progress = checkpoint;
    },
  };
  return ctx;
}

/** The steps in order; each may end the run. Errors (platform or ours) are the caller's to handle. */
async function publish(run: Run, ctx: PublishContext): Promise<void> {
  if (ctx.checkpoint.phase === 'publishing' && (await settleUnknownOutcome(run, ctx)) === 'ended') return;
  if (run.mode !== 'check') {
    if ((await takeRateSlots(run, ctx)) === 'ended') return;
    if ((await deferWhileThrottled(run, ctx)) === 'ended') return;
  }
  const result = await withFreshToken(run, ctx, () => run.adapter.run(ctx));
  if (result.kind === 'published') return finish(run, result, ctx);
  return waitForProcessing(run, result);
}

/** A publish call whose answer was lost: the platform says whether the post is live, not yet (go on from there), or cannot tell. */
async function settleUnknownOutcome(run: Run, ctx: PublishContext): Promise<Step> {
  const resolution = await withFreshToken(run, ctx, () => run.adapter.resolve(ctx));
  if (resolution.kind === 'published') {
    await finish(run, resolution, ctx);
    return 'ended';
  }
  if (resolution.kind === 'unknown') {
    await fail(run, unknownOutcomeReason(run.job.platform));
    return 'ended';
  }
  run.ports.logger.info('unknown outcome resolved: not published yet, continuing', {
    postId: run.job.postId,
    platform: run.job.platform,
  });
  await ctx.save(resolution.checkpoint);
  return 'go_on';
}

/** A fresh post took its slots when it was claimed; a retry starting over takes them now, or is deferred until one frees. */
async function takeRateSlots(run: Run, ctx: PublishContext): Promise<Step> {
  if (Object.keys(ctx.checkpoint).length > 0) return 'go_on';
  const { job, ports } = run;
  const decision = run.claimedRate ?? (await ports.rateLimiter.take(job.profileId, run.rateBuckets));
  if (decision.ok) {
    run.slotsTaken = true;
    return 'go_on';
  }
  const delay = decision.retryInMs * (1 + Math.random() * 0.1);
  ports.logger.info('publishing deferred by the rate limit', {
    postId: job.postId,
    platform: job.platform,
    delayMs: Math.round(delay),
  });
  ports.deferred(job.platform, 'rate_limit');
  await followUp(run, 'defer', { state: 'retry', checkpoint: null, uncount: true }, delay);
  return 'ended';
}

/** A throttle another post met for this app or account holds this one back too, without calling the platform. */
async function deferWhileThrottled(run: Run, ctx: PublishContext): Promise<Step> {
  const held = await run.ports.throttles.held(throttleKeysFor(run.job.platform, run.job.profileId));
  if (!held) return 'go_on';
  await waitOnThrottle(run, { kind: 'held', held }, ctx.checkpoint);
  return 'ended';
}

/** An expired token gets one refresh through connections per post, then the call is tried once more. */
async function withFreshToken<T>(run: Run, ctx: PublishContext, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!(isPlatformError(err) && err.tokenRejected) || run.row.refreshed) throw err;
    ctx.creds = await refreshCredentials(run.ports, run.job, err);
    run.row.refreshed = true;
    await run.ports.attempts.markRefreshed(run.job.postId, run.fence);
    run.ports.logger.info('token refreshed after the platform refused it', {
      postId: run.job.postId,
      platform: run.job.platform,
    });
    return call();
  }
}

/** The platform is still processing: check again later, unless it has taken longer than the processing ceiling. */
async function waitForProcessing(run: Run, waiting: Waiting): Promise<void> {
  const { row, ports } = run;
  const { policy } = ports;
  const since = row.processing_since ? new Date(row.processing_since) : new Date();
  const waited = Date.now() - since.getTime();
  if (!waiting.checkpoint.live && waited >= policy.processingTimeoutMs)
    return fail(run, stillProcessingReason(waiting.what, waited));
  const delay = pollDelayMs(policy.pollIntervalMs, policy.pollMaxIntervalMs, row.checks);
  ports.logger.debug('platform still processing; check scheduled', { postId: run.job.postId, delayMs: delay });
  return followUp(
    run,
    'check',
    { state: 'waiting', checkpoint: waiting.checkpoint, processingSince: since, checks: row.checks + 1 },
    delay,
  );
}

/** A throttle is waited out and never counts as an attempt; the post's slots go back unless it keeps platform-side progress. */
async function waitOnThrottle(run: Run, cause: ThrottleCause, checkpoint: Checkpoint): Promise<void> {
  const { job, ports } = run;
  const decision = await planThrottleWait(
    { attempts: ports.attempts, throttles: ports.throttles, policy: ports.policy.throttle },
    job,
    run.fence,
    cause,
  );
  if (decision.kind === 'lost') return;
  if (decision.kind === 'give_up') {
    await fail(run, decision.reason, { exhausted: true });
    throw new PermanentError(`gave up waiting on a platform throttle: ${decision.reason}`);
  }
  const keep = Object.keys(checkpoint).length > 0;
  if (run.slotsTaken && !keep) await ports.rateLimiter.giveBack(job.profileId, run.rateBuckets);
  const kind = cause.kind === 'met' ? cause.throttle.kind : cause.held.kind;
  const reason = cause.kind === 'met' ? cause.reason : cause.held.reason;
  ports.deferred(job.platform, kind === 'publishing_quota' ? 'publishing_quota' : 'throttle');
  ports.logger.info('publishing deferred: the platform is throttling', {
    postId: job.postId,
    platform: job.platform,
    cause: kind,
    delayMs: decision.delayMs,
    reason,
  });
  // a status check counted no try, so it has none to hand back
  return followUp(
    run,
    'defer',
    { state: 'retry', checkpoint: keep ? checkpoint : null, uncount: run.mode !== 'check' },
    decision.delayMs,
    reason,
  );
}

/** Where a failed step leads: nowhere (taken over), a bus redelivery (our own trouble), a failed post, or a follow-up. */
async function onError(run: Run, err: unknown): Promise<void> {
  if (err instanceof OwnershipLost) {
    run.ports.logger.warn('attempt taken over by another worker; stopping', { postId: run.job.postId });
    return;
  }
  if (!isPlatformError(err)) throw err; // our own trouble (database, broker): the bus redelivers and the attempt is recovered
  // A platform object that failed for good (a container in ERROR) is dropped: the retry makes a new one, never asks it again.
  const checkpoint: Checkpoint = err.restart ? {} : run.progress;
  if (!err.transient) return fail(run, err.message);

  const processing = run.mode === 'check' && !err.outcomeUnknown && !err.restart && checkpoint.phase !== 'publishing';
  if (processing && run.row.processing_since) {
    // A failed status check is not a failed attempt: check again, bounded by the processing ceiling.
    return waitForProcessing(run, {
      kind: 'waiting',
      checkpoint,
      what: `${platformName(run.job.platform)} could not be asked about the media`,
    });
  }
  if (err.throttle)
    return waitOnThrottle(run, { kind: 'met', throttle: err.throttle, reason: err.message }, checkpoint);
  return retryOrGiveUp(run, err, checkpoint);
}

/** A transient platform error: retried with backoff, or, after the last allowed attempt, the post fails and the delivery is dead-lettered. */
async function retryOrGiveUp(run: Run, err: PlatformError, checkpoint: Checkpoint): Promise<void> {
  const { row, ports, job } = run;
  if (row.tries >= ports.policy.maxAttempts) {
    // Media that could not be read never finished the call that publishes (an unfinished upload publishes nothing): say so.
    const reason =
      checkpoint.phase === 'publishing' && !isMediaReadError(err)
        ? unknownOutcomeReason(job.platform)
        : gaveUpReason(err.message, row.tries);
    await fail(run, reason, { exhausted: true });
    // The bus parks this delivery in the dead-letter queue, where an operator can read why.
    throw new PermanentError(`gave up after ${row.tries} attempts: ${err.message}`);
  }
  const delay = retryDelayMs(ports.policy.backoff, Math.max(1, row.tries), err.retryAfterMs);
  ports.logger.info('publish failed transiently; retry scheduled', {
    postId: job.postId,
    platform: job.platform,
    attempt: row.tries,
    delayMs: delay,
    reason: err.message,
  });
  return followUp(
    run,
    'retry',
    { state: 'retry', checkpoint: Object.keys(checkpoint).length ? checkpoint : null },
    delay,
    err.message,
  );
}

async function fail(attempt: Attempt, reason: string, opts: { exhausted?: boolean } = {}): Promise<void> {
  const { ports, job } = attempt;
  if (await ports.attempts.finishFailed(job, attempt.fence, reason, opts)) {
    ports.announced();
    ports.logger.info('post failed', {
      postId: job.postId,
      platform: job.platform,
      reason,
      attempts: attempt.row.tries,
    });
  }
}

/** The post is live: the attempt ends, or, when a first comment or Threads chain follows, goes on to those. */
async function finish(attempt: Attempt, r: Published, ctx: PublishContext): Promise<void> {
  const { ports, job } = attempt;
  if (hasFollowUps(job)) return startFollowUps(attempt, r, ctx.creds);
  if (await ports.attempts.finishPublished(job, attempt.fence, r)) {
    ports.announced();
    ports.logger.info('post published', { postId: job.postId, platform: job.platform, attempts: attempt.row.tries });
  }
}

async function followUp(
  attempt: Attempt,
  kind: FollowUpKind,
  next: Omit<FollowUpState, 'nextAt'>,
  delayMs: number,
  lastError?: string,
): Promise<void> {
  const { ports, delivery, fence } = attempt;
  // The follow-up is sent before the hand-off commits: if we die in between, the attempt is
  // still ours-in-flight and whoever comes next recovers it; the reverse order could lose it.
  await ports.followUps.schedule(delivery.event, { kind, seq: fence.seq + 1, delayMs, headers: delivery.headers });
  await ports.attempts.handOff(
    attempt.job.postId,
    fence,
    { ...next, nextAt: new Date(Date.now() + delayMs) },
    lastError,
  );
}

/** New credentials from connections after the platform refused the token; a refusal to refresh fails the post with the platform's reason. */
async function refreshCredentials(ports: PublishPorts, job: PostDue, refused: PlatformError): Promise<Credentials> {
  let fresh: Credentials;
  try {
    fresh = await ports.credentials.refresh(job);
  } catch (err) {
    if (err instanceof CredentialsError && err.problem.kind === 'unavailable') {
      throw new PlatformError(
        `${refused.message.replace(/[.;]\s*$/, '')}, and connections could not refresh it right now; publishing will be tried again.`,
        {
          platform: refused.platform,
          transient: true,
          code: 'token_refresh_unavailable',
        },
      );
    }
    throw new PlatformError(refused.message, { platform: refused.platform, transient: false, code: refused.code });
  }
  if (fresh.status !== 'active')
    throw new PlatformError(refused.message, { platform: refused.platform, transient: false, code: refused.code });
  return fresh;
}
