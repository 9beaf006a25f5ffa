import type { EntityManager } from 'typeorm';
import { AppError } from '@postbus/contracts';

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
export async function lockHeldSlot(m: EntityManager, accountId: string, postId: string, now: Date): Promise<HeldSlot | undefined> {
  const [claim]: { schedule_id: string; profile_id: string; slot_at: Date }[] = await m.query(
    `SELECT c.schedule_id, c.profile_id, c.slot_at FROM schedule_claims c JOIN posts p ON p.id = c.post_id
      WHERE c.post_id = $1 AND p.account_id = $2 AND p.scheduled_time = c.slot_at AND c.slot_at > $3`,
    [postId, accountId, now],
  );
  if (!claim) return undefined;
  const locked: unknown[] = await m.query('SELECT id FROM schedules WHERE id = $1 AND account_id = $2 FOR UPDATE', [claim.schedule_id, accountId]);
  if (!locked.length) return undefined;
  return { scheduleId: claim.schedule_id, profileId: claim.profile_id, at: new Date(claim.slot_at) };
}

/**
 * Moves the later queued posts of the same schedule and profile up, in slot order, each into the
 * slot the previous one left. A move applies only while the post is still scheduled, undispatched
 * and due at its claimed slot; a post that is not (dispatched, edited) stays and is stepped over.
 */
export async function moveQueueUp(m: EntityManager, accountId: string, freed: HeldSlot): Promise<QueueMove[]> {
  const later: { post_id: string; slot_at: Date }[] = await m.query(
    `SELECT c.post_id, c.slot_at FROM schedule_claims c
      WHERE c.schedule_id = $1 AND c.profile_id = $2 AND c.slot_at > $3 ORDER BY c.slot_at, c.post_id LIMIT $4`,
    [freed.scheduleId, freed.profileId, freed.at, RESHUFFLE_MAX],
  );
  const moves: QueueMove[] = [];
  let free = freed.at;
  for (const claim of later) {
    const at = new Date(claim.slot_at);
    // Several posts may share a slot: one that has moved frees room at its slot, not before it.
    if (at <= free) continue;
    const moved: unknown[] = await m.query(
      `WITH moved AS (
         UPDATE posts SET scheduled_time = $3, updated_at = now()
          WHERE id = $1 AND account_id = $2 AND status = 'scheduled' AND dispatched_at IS NULL AND scheduled_time = $4 RETURNING id
       ) SELECT id FROM moved`,
      [claim.post_id, accountId, free, at],
    );
    if (!moved.length) continue;
    await m.query('UPDATE schedule_claims SET slot_at = $2 WHERE post_id = $1', [claim.post_id, free]);
    moves.push({ postId: claim.post_id, from: at.toISOString(), to: free.toISOString() });
    free = at;
  }
  return moves;
}
