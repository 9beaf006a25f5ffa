import { AppError } from '@postbus/contracts';
import type { DatabaseSource } from '@postbus/kit';
import { claimsAfter, findHeldClaim, lockSchedule, moveToSlot } from './queue-slot.repository';

/** One queued post moved up: from its old slot to the freed one. */
export interface QueueMove {
  postId: string;
  from: string;
  to: string;
}

/** The slot a queued post holds, with its schedule row locked until the transaction ends. */
export interface HeldSlot {
  scheduleId: string;
  profileId: string;
  at: Date;
}

/** The most later posts one reshuffle looks at; a queue searches no further ahead than this. */
const RESHUFFLE_MAX = 1000;

/** `?reshuffle=true|false` as the RPC received it; anything else is refused. */
export function reshuffleFlag(value: unknown): boolean {
  if (value === undefined || value === false) return false;
  if (value === true) return true;
  throw new AppError('validation_error', 'reshuffle must be true or false.', { field: 'reshuffle' });
}

/**
 * The future slot `postId` holds (its claim, while the post is still due at it), with the
 * schedule locked as queueing locks it, so that moves and new claims take turns. Undefined when
 * the post holds no slot: not queued, moved already, or the slot has passed.
 */
export async function lockHeldSlot(
  m: DatabaseSource,
  accountId: string,
  postId: string,
  now: Date,
): Promise<HeldSlot | undefined> {
  const claim = await findHeldClaim(m, accountId, postId, now);
  if (!claim || !(await lockSchedule(m, accountId, claim.scheduleId))) return undefined;
  return { scheduleId: claim.scheduleId, profileId: claim.profileId, at: claim.slotAt };
}

/**
 * Moves the later queued posts of the same schedule and profile up, in slot order, each into the
 * slot the previous one left. A move applies only while the post is still scheduled, undispatched
 * and due at its claimed slot; a post that is not (dispatched, edited) stays and is stepped over.
 */
export async function moveQueueUp(m: DatabaseSource, accountId: string, freed: HeldSlot): Promise<QueueMove[]> {
  const later = await claimsAfter(m, {
    scheduleId: freed.scheduleId,
    profileId: freed.profileId,
    after: freed.at,
    limit: RESHUFFLE_MAX,
  });
  const moves: QueueMove[] = [];
  let free = freed.at;
  for (const claim of later) {
    const at = claim.slotAt;
    // Several posts may share a slot: one that has moved frees room at its slot, not before it.
    if (at <= free) continue;
    if (!(await moveToSlot(m, accountId, claim.postId, at, free))) continue;
    moves.push({ postId: claim.postId, from: at.toISOString(), to: free.toISOString() });
    free = at;
  }
  return moves;
}
