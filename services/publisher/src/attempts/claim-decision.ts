import type { AttemptState } from './attempt.repository';

/** What the attempt log says about a post that already has an attempt, read under the row's lock. */
export interface AttemptFacts {
  state: AttemptState;
  /** The worker owning the attempt (in flight), null when none does. */
  ownerId: string | null;
  /** Whether that owner's heartbeat is recent enough for it to be alive. */
  ownerAlive: boolean;
  /** The seq of the one follow-up that may continue the post. */
  seq: number;
  /** When the scheduled follow-up is due (null: none scheduled). */
  nextAt: Date | null;
}

/** Who is asking, with which message, and when. */
export interface ClaimRequest {
  workerId: string;
  /** seq carried by a follow-up message; undefined for post.due itself. */
  messageSeq?: number;
  /** A follow-up later than its due time by this much is presumed lost, and the next message takes over. */
  followUpGraceMs: number;
  now: Date;
}

export type ClaimDecision =
  | { action: 'reannounce' }
  | { action: 'park' }
  | { action: 'drop' }
  /** Take the attempt over: `recover` a dropped in-flight attempt, `check` on processing, or `retry` (both count a try, a check does not). */
  | { action: 'take'; mode: 'recover' | 'check' | 'retry' };

/**
 * What a delivery of a post with an attempt may do: re-announce a final outcome, wait for a live
 * owner (park), take over an in-flight attempt whose owner is us or dead, continue the scheduled
 * step when it carries the right seq (or the step's own message is presumed lost), or nothing.
 */
export function decideClaim(facts: AttemptFacts, request: ClaimRequest): ClaimDecision {
  if (facts.state === 'published' || facts.state === 'failed') return { action: 'reannounce' };
  if (facts.state === 'in_flight') {
    // Ours but not being handled (the caller checked): our delivery failed mid-way. Another live worker's: leave it be.
    if (facts.ownerId !== request.workerId && facts.ownerAlive) return { action: 'park' };
    return { action: 'take', mode: 'recover' };
  }
  const overdue = facts.nextAt !== null && request.now.getTime() > facts.nextAt.getTime() + request.followUpGraceMs;
  if (request.messageSeq !== facts.seq && !overdue) return { action: 'drop' };
  return { action: 'take', mode: facts.state === 'waiting' ? 'check' : 'retry' };
}
