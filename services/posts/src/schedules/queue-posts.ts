import type { EntityManager } from 'typeorm';
import { AppError, type Principal } from '@postbus/contracts';
import { zoneOf } from '../posts/local-time';
import type { NewPost } from '../posts/post.repository';
import { scheduleRepository as repo, takenKey } from './schedule.repository';
import { findOwnSchedule } from './schedules.use-cases';
import { nextSlotTimes } from './weekly-slots';

/** How far ahead a queue looks for a free slot before refusing. */
export const QUEUE_SEARCH_SLOTS = 1000;

/** Where queued rows go: one named schedule, or each profile's default schedule. */
export type SlotQueue = { scheduleId: string } | { defaults: true };

/**
 * Gives each row the next free slot of its profile in the schedule and claims it, inside the
 * caller's transaction. The schedule row stays locked until that transaction ends, so two creates
 * queueing at once take turns and never fill a slot beyond postsPerSlot.
 */
export async function takeNextSlots(
  m: EntityManager,
  principal: Principal,
  queue: SlotQueue,
  rows: NewPost[],
  now: Date,
): Promise<void> {
  if ('scheduleId' in queue) return takeSlotsIn(m, principal, queue.scheduleId, rows, now);
  const defaults = await repo.defaultsOf(
    m,
    principal.accountId,
    rows.map((r) => r.profile_id),
  );
  const without = rows.filter((r) => !defaults.has(r.profile_id)).map((r) => r.profile_id);
  if (without.length)
    throw new AppError(
      'schedule_not_applicable',
      `Profile ${without.join(', ')} has no default schedule for "scheduledTime": "next"; name it in a schedule's defaultFor (POST or PATCH /api/v1/schedules), or give schedule.`,
    );
  // Locked in id order, so two creates spanning the same schedules never wait on each other in a cycle.
  for (const scheduleId of [...new Set(defaults.values())].sort()) {
    await takeSlotsIn(
      m,
      principal,
      scheduleId,
      rows.filter((r) => defaults.get(r.profile_id) === scheduleId),
      now,
    );
  }
}

async function takeSlotsIn(
  m: EntityManager,
  principal: Principal,
  scheduleId: string,
  rows: NewPost[],
  now: Date,
): Promise<void> {
  const schedule = await findOwnSchedule({ ds: m.connection }, principal, scheduleId, m, true);
  const outside = rows.filter((r) => !schedule.profile_ids.includes(r.profile_id));
  if (outside.length)
    throw new AppError(
      'schedule_not_applicable',
      `Schedule ${scheduleId} does not serve profile ${outside.map((r) => r.profile_id).join(', ')}; name the profiles it serves in profileIds.`,
    );
  const times = nextSlotTimes(schedule.slots, zoneOf(schedule.timezone)!, now, QUEUE_SEARCH_SLOTS);
  const taken = await repo.taken(m, scheduleId, now);
  const claims = rows.map((row) => {
    const free = times.find(({ at }) => (taken.get(takenKey(row.profile_id, at)) ?? 0) < schedule.posts_per_slot);
    if (!free)
      throw new AppError(
        'schedule_not_applicable',
        `Schedule ${scheduleId} has no free slot for profile ${row.profile_id} in its next ${QUEUE_SEARCH_SLOTS} slots.`,
      );
    const key = takenKey(row.profile_id, free.at);
    taken.set(key, (taken.get(key) ?? 0) + 1);
    row.scheduled_time = free.at;
    return { postId: row.id, profileId: row.profile_id, at: free.at };
  });
  await repo.claim(m, scheduleId, claims);
}
