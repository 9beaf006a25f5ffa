import type { EventEnvelope, PostDue } from '@postbus/contracts';
import { isPlatformError, type PlatformError } from '@postbus/platforms';
import type { AttemptRow, Fence } from '../../attempts/attempt.repository';
import { CredentialsError, type Credentials } from '../../credentials/credentials.port';
import { retryDelayMs } from '../../scheduling/backoff';
import type { FollowUpKind } from '../../scheduling/follow-up.scheduler';
import type { FollowUpContext, FollowUpSender, Published } from '../adapters/platform-adapter';
import { platformName } from '../failure-reasons';
import type { PublishPorts } from '../publish-ports';
import { firstCommentEvent, followUpEvents } from './follow-up-events';
import {
  failStep,
  nextStep,
  parentOf,
  planFollowUps,
  type FollowUpStep,
  type FollowUpsCheckpoint,
} from './follow-up-plan';

/** An attempt this worker owns, as advanceAttempt holds it. */
export interface FollowUpAttempt {
  ports: PublishPorts;
  delivery: { event: EventEnvelope; job: PostDue; headers: Record<string, unknown> };
  job: PostDue;
  fence: Fence;
  row: AttemptRow;
}

/** The attempt moved on to another worker: what we were doing is theirs now. */
class FollowUpOwnershipLost extends Error {}

/**
 * The post is live: announce it, then publish its first comment and Threads chain under the same
 * attempt. Each step is marked `sending` in the attempt log before its call, so a run that finds a
 * step there (a crash, a lost answer, a redelivery) asks the platform before anything is sent again.
 */
export async function startFollowUps(
  attempt: FollowUpAttempt,
  published: Published,
  creds: Credentials,
): Promise<void> {
  const { ports, job, fence } = attempt;
  const checkpoint: FollowUpsCheckpoint = {
    followUps: { platformPostId: published.platformPostId, permalink: published.permalink, steps: planFollowUps(job) },
  };
  if (!(await ports.attempts.publishedWithFollowUps(job, fence, published, checkpoint))) return;
  ports.announced();
  ports.logger.info('post published; first comment or thread follows', {
    postId: job.postId,
    platform: job.platform,
    attempts: attempt.row.tries,
  });
  await runSteps(attempt, checkpoint, creds);
}

/** A later run of an attempt whose post is live: go on with the follow-ups where the attempt log left them. */
export async function continueFollowUps(attempt: FollowUpAttempt, checkpoint: FollowUpsCheckpoint): Promise<void> {
  let creds: Credentials;
  try {
    creds = await attempt.ports.credentials.get(attempt.job);
  } catch (err) {
    if (!(err instanceof CredentialsError)) throw err;
    if (err.problem.kind === 'unavailable')
      return retryLater(attempt, checkpoint, "connections could not give the profile's credentials", undefined);
    return failRemaining(
      attempt,
      checkpoint,
      err.problem.kind === 'disconnected'
        ? 'Not posted: the profile was disconnected.'
        : `Not posted: the profile's credentials could not be read (${err.message}).`,
    );
  }
  if (creds.status !== 'active')
    return failRemaining(
      attempt,
      checkpoint,
      `Not posted: the ${platformName(attempt.job.platform)} profile needs to be reconnected.`,
    );
  await runSteps(attempt, checkpoint, creds);
}

async function runSteps(attempt: FollowUpAttempt, checkpoint: FollowUpsCheckpoint, creds: Credentials): Promise<void> {
  const { ports, job } = attempt;
  const sender = ports.adapters[job.platform]?.followUps;
  const { steps } = checkpoint.followUps;
  try {
    for (let i = nextStep(steps); i !== undefined; i = nextStep(steps)) {
      if (!sender) {
        failStep(steps, i, `${platformName(job.platform)} takes no comments through its API.`);
        await settled(attempt, checkpoint, i);
        continue;
      }
      const ended = await runStep(attempt, checkpoint, creds, sender, i);
      if (ended) return;
    }
    if (await ports.attempts.finishFollowUps(job, attempt.fence, checkpoint, followUpEvents(job, steps, new Date()))) {
      ports.announced();
      ports.logger.info('first comment and thread settled', {
        postId: job.postId,
        platform: job.platform,
        steps: steps.map((s) => s.status),
      });
    }
  } catch (err) {
    if (err instanceof FollowUpOwnershipLost)
      return void ports.logger.warn('attempt taken over by another worker; stopping', { postId: job.postId });
    throw err;
  }
}

/** One step, from wherever it stands; true when the run ended with a scheduled follow-up (retry or check). */
async function runStep(
  attempt: FollowUpAttempt,
  checkpoint: FollowUpsCheckpoint,
  creds: Credentials,
  sender: FollowUpSender,
  i: number,
): Promise<boolean> {
  const { steps } = checkpoint.followUps;
  const ctx: FollowUpContext = {
    creds,
    postId: checkpoint.followUps.platformPostId,
    parentId: parentOf(steps, i, checkpoint.followUps.platformPostId),
    text: steps[i].text,
    progress: steps[i].progress,
    save: async (progress) => {
      steps[i] = { ...steps[i], progress };
      ctx.progress = progress;
      await save(attempt, checkpoint);
    },
  };
  try {
    if (steps[i].status === 'sending') {
      // Its call went out before and no answer was recorded: the platform says whether it is there.
      const found = await sender.find(ctx);
      if (found.kind === 'sent') {
        await posted(attempt, checkpoint, i, found);
        return false;
      }
      steps[i] = { ...steps[i], status: 'pending', progress: found.progress };
      ctx.progress = found.progress;
    }
    steps[i] = { ...steps[i], status: 'sending', tries: steps[i].tries + 1 };
    await save(attempt, checkpoint);
    const result = await sender.send(ctx);
    if (result.kind === 'sent') {
      await posted(attempt, checkpoint, i, result);
      return false;
    }
    // The platform is still preparing it (a Threads container): nothing was published; look again shortly.
    steps[i] = { ...steps[i], status: 'pending', tries: steps[i].tries - 1, progress: result.progress };
    await handOff(attempt, checkpoint, 'check', attempt.ports.policy.pollIntervalMs);
    return true;
  } catch (err) {
    if (err instanceof FollowUpOwnershipLost || !isPlatformError(err)) throw err;
    return onStepError(attempt, checkpoint, i, err);
  }
}

/** A transient failure is retried with the publisher's backoff; a refusal, or the last try, fails the step (and the chain after it). */
async function onStepError(
  attempt: FollowUpAttempt,
  checkpoint: FollowUpsCheckpoint,
  i: number,
  err: PlatformError,
): Promise<boolean> {
  const { steps } = checkpoint.followUps;
  const { ports, job } = attempt;
  // A call that certainly did not go through leaves nothing to look for; one that may have stays `sending`.
  if (!err.outcomeUnknown)
    steps[i] = { ...steps[i], status: 'pending', progress: err.restart ? {} : steps[i].progress };
  if (err.transient && steps[i].tries < ports.policy.maxAttempts) {
    await retryLater(attempt, checkpoint, err.message, err.retryAfterMs, steps[i].tries);
    return true;
  }
  const what = steps[i].kind === 'first_comment' ? 'first comment' : 'reply';
  const reason = err.transient
    ? err.outcomeUnknown
      ? `${err.message.replace(/[.;]\s*$/, '')}; given up after ${steps[i].tries} tries, so the ${what} may or may not be there.`
      : `${err.message.replace(/[.;]\s*$/, '')} (given up after ${steps[i].tries} tries).`
    : err.message;
  ports.logger.info('follow-up failed', {
    postId: job.postId,
    platform: job.platform,
    step: i,
    kind: steps[i].kind,
    reason,
  });
  failStep(steps, i, reason);
  await settled(attempt, checkpoint, i);
  return false;
}

async function posted(
  attempt: FollowUpAttempt,
  checkpoint: FollowUpsCheckpoint,
  i: number,
  sent: { id: string; permalink: string | null },
): Promise<void> {
  const { steps } = checkpoint.followUps;
  steps[i] = {
    ...steps[i],
    status: 'posted',
    id: sent.id,
    permalink: sent.permalink,
    failedReason: null,
    progress: {},
  };
  await settled(attempt, checkpoint, i);
}

/** A settled step is saved; a settled first comment is announced with it, right away. */
async function settled(attempt: FollowUpAttempt, checkpoint: FollowUpsCheckpoint, i: number): Promise<void> {
  const { steps } = checkpoint.followUps;
  const event = steps[i].kind === 'first_comment' ? firstCommentEvent(attempt.job, steps, new Date()) : undefined;
  if (!(await attempt.ports.attempts.saveFollowUps(attempt.job, attempt.fence, checkpoint, event ? [event] : [])))
    throw new FollowUpOwnershipLost();
  if (event) attempt.ports.announced();
}

async function save(attempt: FollowUpAttempt, checkpoint: FollowUpsCheckpoint): Promise<void> {
  if (!(await attempt.ports.attempts.saveCheckpoint(attempt.job.postId, attempt.fence, checkpoint)))
    throw new FollowUpOwnershipLost();
}

async function retryLater(
  attempt: FollowUpAttempt,
  checkpoint: FollowUpsCheckpoint,
  reason: string,
  retryAfterMs: number | undefined,
  tries = 1,
): Promise<void> {
  const delay = retryDelayMs(attempt.ports.policy.backoff, Math.max(1, tries), retryAfterMs);
  attempt.ports.logger.info('follow-up failed transiently; retry scheduled', {
    postId: attempt.job.postId,
    platform: attempt.job.platform,
    delayMs: delay,
    reason,
  });
  await handOff(attempt, checkpoint, 'retry', delay, reason);
}

/** The follow-up message is sent before the hand-off commits (as every follow-up of an attempt): a crash in between leaves it ours to recover. */
async function handOff(
  attempt: FollowUpAttempt,
  checkpoint: FollowUpsCheckpoint,
  kind: FollowUpKind,
  delayMs: number,
  lastError?: string,
): Promise<void> {
  const { ports, delivery, fence } = attempt;
  await ports.followUps.schedule(delivery.event, { kind, seq: fence.seq + 1, delayMs, headers: delivery.headers });
  await ports.attempts.handOff(
    attempt.job.postId,
    fence,
    { state: 'retry', checkpoint, nextAt: new Date(Date.now() + delayMs) },
    lastError,
  );
}

/** The profile can no longer be used: every unsettled step fails with the reason, and the attempt ends. */
async function failRemaining(attempt: FollowUpAttempt, checkpoint: FollowUpsCheckpoint, reason: string): Promise<void> {
  const { steps } = checkpoint.followUps;
  for (let i = nextStep(steps); i !== undefined; i = nextStep(steps))
    steps[i] = { ...steps[i], status: 'failed', failedReason: reason } satisfies FollowUpStep;
  if (
    await attempt.ports.attempts.finishFollowUps(
      attempt.job,
      attempt.fence,
      checkpoint,
      followUpEvents(attempt.job, steps, new Date()),
    )
  )
    attempt.ports.announced();
}
