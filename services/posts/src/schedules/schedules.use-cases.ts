import {
  AppError,
  newId,
  profileLimitOf,
  SLOT_PREVIEW_DEFAULT,
  SLOT_PREVIEW_MAX,
  type Principal,
  type Schedule,
  type SlotPreview,
} from '@postbus/contracts';
import { findReplay, lockAccount, recordAnswer } from '../posts/create-request.repository';
import { payloadHash, type ReplayKey } from '../posts/create-requests';
import { parseTimestamp } from '../posts/post-payload.rules';
import { zoneOf } from '../posts/local-time';
import type { PostsPorts } from '../posts/posts.ports';
import { assertNamedProfilesAllowed, scheduleFieldsOf } from './schedule-input.rules';
import { scheduleRepository as repo, takenKey, toSchedule, type ScheduleRow } from './schedule.repository';
import { nextSlotTimes } from './weekly-slots';

/**
 * Creates a schedule. With an idempotency key, a repeat of the same request answers the schedule
 * the first one made (the same key with another body is idempotency_conflict), even when both
 * arrive at once: the account's creates take turns under one lock.
 */
export async function createSchedule(
  ports: PostsPorts,
  principal: Principal,
  body: unknown,
  idempotencyKey?: string,
): Promise<Schedule> {
  const fields = await scheduleFieldsOf(ports, principal, body);
  const keys: ReplayKey[] = idempotencyKey ? [['idempotency', idempotencyKey]] : [];
  const hash = payloadHash({ schedule: body });
  return ports.ds.transaction(async (m) => {
    if (keys.length) {
      await lockAccount(m, principal.accountId);
      const replay = await findReplay<{ scheduleId: string }>(m, principal.accountId, keys, hash);
      if (replay) return toSchedule(await findOwnSchedule(ports, principal, replay.answer.scheduleId, m));
    }
    const row = await repo.insert(m, { id: newId('sch'), account_id: principal.accountId, ...fields });
    await repo.setDefaults(m, principal.accountId, row.id, fields.default_for);
    await recordAnswer(m, principal.accountId, keys, hash, { scheduleId: row.id });
    return toSchedule(row);
  });
}

export async function listSchedules(ports: PostsPorts, principal: Principal): Promise<{ data: Schedule[] }> {
  return { data: (await repo.list(ports.ds.manager, principal.accountId, profileLimitOf(principal))).map(toSchedule) };
}

/** The caller's schedule, or schedule_not_found (another account's, or one serving a profile the key may not use). */
export async function findOwnSchedule(
  ports: Pick<PostsPorts, 'ds'>,
  principal: Principal,
  id: string,
  m = ports.ds.manager,
  lock = false,
): Promise<ScheduleRow> {
  const row = await repo.find(m, principal.accountId, profileLimitOf(principal), id, lock);
  if (!row) throw new AppError('schedule_not_found', `No schedule ${id}.`);
  return row;
}

export async function getSchedule(ports: PostsPorts, principal: Principal, id: string): Promise<Schedule> {
  return toSchedule(await findOwnSchedule(ports, principal, id));
}

export async function updateSchedule(
  ports: PostsPorts,
  principal: Principal,
  id: string,
  patch: unknown,
): Promise<Schedule> {
  assertNamedProfilesAllowed(principal, patch);
  const current = await findOwnSchedule(ports, principal, id);
  const fields = await scheduleFieldsOf(ports, principal, patch, current);
  return ports.ds.transaction(async (m) => {
    const row = await repo.update(m, principal.accountId, id, fields);
    if (!row) throw new AppError('schedule_not_found', `No schedule ${id}.`);
    await repo.setDefaults(m, principal.accountId, id, fields.default_for);
    return toSchedule(row);
  });
}

/** Deletes the schedule; posts already queued stay scheduled at their times. */
export async function deleteSchedule(ports: PostsPorts, principal: Principal, id: string): Promise<Schedule> {
  const row = await findOwnSchedule(ports, principal, id);
  await repo.delete(ports.ds.manager, principal.accountId, id);
  return toSchedule(row);
}

export async function previewSlots(
  ports: PostsPorts,
  principal: Principal,
  q: { id: string; from?: string; count?: unknown },
): Promise<SlotPreview> {
  const from = q.from === undefined ? ports.clock() : parseTimestamp(q.from);
  if (!from)
    throw new AppError('validation_error', 'from must be an ISO 8601 datetime with Z or an offset.', { field: 'from' });
  const count = q.count === undefined ? SLOT_PREVIEW_DEFAULT : q.count;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > SLOT_PREVIEW_MAX)
    throw new AppError('validation_error', `count must be an integer from 1 to ${SLOT_PREVIEW_MAX}.`, {
      field: 'count',
    });
  const row = await findOwnSchedule(ports, principal, q.id);
  // Listed from `from` itself: a slot exactly at `from` is shown.
  const times = nextSlotTimes(row.slots, zoneOf(row.timezone)!, new Date(from.getTime() - 1), count);
  const taken = await repo.taken(ports.ds.manager, row.id, from);
  return {
    data: times.map(({ at, local }) => ({
      scheduledTime: at.toISOString(),
      local,
      profiles: row.profile_ids.map((profileId) => {
        const n = taken.get(takenKey(profileId, at)) ?? 0;
        return { profileId, taken: n, free: n < row.posts_per_slot };
      }),
    })),
  };
}
