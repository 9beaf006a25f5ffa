import type { FollowUpOutcome, PostDue } from '@postbus/contracts';
import type { Checkpoint, FollowUpProgress } from '../adapters/platform-adapter';

/**
 * One comment or reply published after the post. `sending` is written just before the call that
 * may publish it: finding it there on a later run means the platform is asked first, never that it
 * is sent again blindly.
 */
export interface FollowUpStep {
  kind: 'first_comment' | 'thread';
  text: string;
  status: 'pending' | 'sending' | 'posted' | 'failed';
  id: string | null;
  permalink: string | null;
  failedReason: string | null;
  /** Sends tried (a transient failure is retried with backoff up to the publisher's maxAttempts). */
  tries: number;
  progress: FollowUpProgress;
}

/** The attempt's checkpoint once the post is live and its follow-ups are under way. */
export interface FollowUpsCheckpoint extends Checkpoint {
  followUps: {
    /** The published post, which the comments go under. */
    platformPostId: string;
    permalink: string | null;
    steps: FollowUpStep[];
  };
}

export const hasFollowUps = (job: PostDue): boolean => Boolean(job.firstComment) || Boolean(job.thread?.length);

export function isFollowingUp(checkpoint: Checkpoint | null | undefined): checkpoint is FollowUpsCheckpoint {
  return typeof checkpoint?.followUps === 'object' && checkpoint.followUps !== null;
}

const step = (kind: FollowUpStep['kind'], text: string): FollowUpStep => ({
  kind,
  text,
  status: 'pending',
  id: null,
  permalink: null,
  failedReason: null,
  tries: 0,
  progress: {},
});

/** The first comment right after the post, then the Threads, X or Bluesky reply chain in order. */
export function planFollowUps(job: PostDue): FollowUpStep[] {
  const steps: FollowUpStep[] = [];
  if (job.firstComment) steps.push(step('first_comment', job.firstComment));
  if (job.platform === 'threads' || job.platform === 'x' || job.platform === 'bluesky')
    for (const part of job.thread ?? []) steps.push(step('thread', part));
  return steps;
}

/** The step to work on next: the first that has not settled. */
export function nextStep(steps: FollowUpStep[]): number | undefined {
  const i = steps.findIndex((s) => s.status === 'pending' || s.status === 'sending');
  return i < 0 ? undefined : i;
}

/** What a step answers: a first comment answers the post, a part of the chain the part before it (the first part, the post). */
export function parentOf(steps: FollowUpStep[], i: number, postId: string): string {
  if (steps[i].kind !== 'thread') return postId;
  for (let j = i - 1; j >= 0; j--) if (steps[j].kind === 'thread') return steps[j].id ?? postId;
  return postId;
}

/** A failed part of the chain leaves nothing to reply to: the parts after it fail with it, unsent. */
export function failStep(steps: FollowUpStep[], i: number, reason: string): void {
  steps[i] = { ...steps[i], status: 'failed', failedReason: reason };
  if (steps[i].kind !== 'thread') return;
  let part = steps.slice(0, i + 1).filter((s) => s.kind === 'thread').length;
  const failedPart = part;
  for (let j = i + 1; j < steps.length; j++) {
    if (steps[j].kind !== 'thread' || steps[j].status === 'posted') continue;
    part++;
    steps[j] = {
      ...steps[j],
      status: 'failed',
      failedReason: `Not posted: part ${failedPart} of the thread could not be posted, so part ${part} had nothing to reply to.`,
    };
  }
}

export function outcomeOf(s: FollowUpStep): FollowUpOutcome {
  const status = s.status === 'sending' ? 'pending' : s.status;
  return { text: s.text, status, permalink: s.permalink, failedReason: s.failedReason };
}

export const firstCommentOf = (steps: FollowUpStep[]): FollowUpStep | undefined =>
  steps.find((s) => s.kind === 'first_comment');
export const threadOf = (steps: FollowUpStep[]): FollowUpStep[] => steps.filter((s) => s.kind === 'thread');
