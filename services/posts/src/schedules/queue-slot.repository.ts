import { databaseOf, type DatabaseSource } from '@postbus/kit';

/** A queued post's claim on a slot of its schedule. */
export interface SlotClaim {
  postId: string;
  scheduleId: string;
  profileId: string;
  slotAt: Date;
}

/** The future slot `postId` claims while the post is still due at it; undefined otherwise. */
export async function findHeldClaim(
  db: DatabaseSource,
  accountId: string,
  postId: string,
  now: Date,
): Promise<SlotClaim | undefined> {
  const row = await databaseOf(db).one<{ schedule_id: string; profile_id: string; slot_at: Date }>(
    `SELECT c.schedule_id, c.profile_id, c.slot_at FROM schedule_claims c JOIN posts p ON p.id = c.post_id
      WHERE c.post_id = $1 AND p.account_id = $2 AND p.scheduled_time = c.slot_at AND c.slot_at > $3`,
    [postId, accountId, now],
  );
  return row && { postId, scheduleId: row.schedule_id, profileId: row.profile_id, slotAt: new Date(row.slot_at) };
}

/** Locks the account's schedule until the transaction ends, as queueing locks it; false when there is no such schedule. */
export async function lockSchedule(db: DatabaseSource, accountId: string, scheduleId: string): Promise<boolean> {
  const locked = await databaseOf(db).query('SELECT id FROM schedules WHERE id = $1 AND account_id = $2 FOR UPDATE', [
    scheduleId,
    accountId,
  ]);
  return locked.length > 0;
}

/** Claims of the schedule and profile after `after`, in slot order, at most `limit`. */
export async function claimsAfter(
  db: DatabaseSource,
  q: { scheduleId: string; profileId: string; after: Date; limit: number },
): Promise<{ postId: string; slotAt: Date }[]> {
  const rows = await databaseOf(db).query<{ post_id: string; slot_at: Date }>(
    `SELECT c.post_id, c.slot_at FROM schedule_claims c
      WHERE c.schedule_id = $1 AND c.profile_id = $2 AND c.slot_at > $3 ORDER BY c.slot_at, c.post_id LIMIT $4`,
    [q.scheduleId, q.profileId, q.after, q.limit],
  );
  return rows.map((r) => ({ postId: r.post_id, slotAt: new Date(r.slot_at) }));
}

/**
 * Moves a queued post and its claim from slot `from` to slot `to`: only while the post is still
 * scheduled, undispatched and due at `from`. True when it moved.
 */
export async function moveToSlot(
  db: DatabaseSource,
  accountId: string,
  postId: string,
  from: Date,
  to: Date,
): Promise<boolean> {
  const port = databaseOf(db);
  const moved = await port.updateReturning(
    `UPDATE posts SET scheduled_time = $3, updated_at = now()
      WHERE id = $1 AND account_id = $2 AND status = 'scheduled' AND dispatched_at IS NULL AND scheduled_time = $4 RETURNING id`,
    [postId, accountId, to, from],
  );
  if (!moved.length) return false;
  await port.query('UPDATE schedule_claims SET slot_at = $2 WHERE post_id = $1', [postId, to]);
  return true;
}
