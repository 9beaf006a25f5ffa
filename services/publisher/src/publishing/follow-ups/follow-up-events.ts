import { Events, type PostDue } from '@postbus/contracts';
import { envelope, namedEventId, type OutgoingEvent } from '@postbus/bus';
import { firstCommentOf, outcomeOf, threadOf, type FollowUpStep } from './follow-up-plan';

/** Each announcement has one id, so a repeat (a redelivery re-announcing) reaches subscribers once. */
export const firstCommentEventId = (postId: string): string => namedEventId(`post-first-comment:${postId}`);
export const threadEventId = (postId: string): string => namedEventId(`post-thread:${postId}`);

const settled = (s: FollowUpStep) => s.status === 'posted' || s.status === 'failed';

/** post.first_comment once the first comment settled; undefined before, or when the post has none. */
export function firstCommentEvent(job: PostDue, steps: FollowUpStep[], at: Date): OutgoingEvent | undefined {
  const first = firstCommentOf(steps);
  if (!first || !settled(first)) return undefined;
  const data = {
    postId: job.postId,
    accountId: job.accountId,
    profileId: job.profileId,
    platform: job.platform,
    firstComment: outcomeOf(first),
    settledAt: at.toISOString(),
  };
  return envelope(Events.postFirstComment, data, { id: firstCommentEventId(job.postId) });
}

/** post.thread once every part of the chain settled; undefined before, or when the post has none. */
export function threadEvent(job: PostDue, steps: FollowUpStep[], at: Date): OutgoingEvent | undefined {
  const parts = threadOf(steps);
  if (!parts.length || !parts.every(settled)) return undefined;
  const data = {
    postId: job.postId,
    accountId: job.accountId,
    profileId: job.profileId,
    platform: job.platform,
    thread: parts.map(outcomeOf),
    settledAt: at.toISOString(),
  };
  return envelope(Events.postThread, data, { id: threadEventId(job.postId) });
}

/** Every follow-up announcement the steps have earned so far. */
export function followUpEvents(job: PostDue, steps: FollowUpStep[], at: Date): OutgoingEvent[] {
  return [firstCommentEvent(job, steps, at), threadEvent(job, steps, at)].filter(
    (e): e is OutgoingEvent => e !== undefined,
  );
}
