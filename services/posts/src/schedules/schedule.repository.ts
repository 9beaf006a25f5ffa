import type { EntityManager } from 'typeorm';
import { databaseOf } from '@postbus/kit';
import { AppError, type Schedule, type ScheduleSlot } from '@postbus/contracts';

export interface ScheduleRow {
  id: string;
  account_id: string;
  name: string;
  timezone: string;
  slots: ScheduleSlot[];
  profile_ids: string[];
  posts_per_slot: number;
  /** Profiles whose default schedule this is (their rows in schedule_defaults). */
  default_for: string[];
  created_at: Date;
  updated_at: Date;
}

export type ScheduleFields = Pick<
  ScheduleRow,
  'name' | 'timezone' | 'slots' | 'profile_ids' | 'posts_per_slot' | 'default_for'
>;

export function toSchedule(row: ScheduleRow): Schedule {
  return {
    id: row.id,
    name: row.name,
    timezone: row.timezone,
    slots: row.slots,
    profileIds: row.profile_ids,
    postsPerSlot: row.posts_per_slot,
    defaultFor: row.default_for,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/**
 * Schedules and their slot claims; every query is filtered by the owning account and, for a key
 * limited to some profiles, to schedules serving only those profiles (`visible`).
 */
export const scheduleRepository = {
  async insert(m: EntityManager, row: Pick<ScheduleRow, 'id' | 'account_id'> & ScheduleFields): Promise<ScheduleRow> {
    const [saved] = await m.query<ScheduleRow[]>(
      'INSERT INTO schedules (id, account_id, name, timezone, slots, profile_ids, posts_per_slot, default_for) VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8) RETURNING *',
      [
        row.id,
        row.account_id,
        row.name,
        row.timezone,
        JSON.stringify(row.slots),
        row.profile_ids,
        row.posts_per_slot,
        row.default_for,
      ],
    );
    return saved;
  },

  async list(m: EntityManager, accountId: string, visible: string[] | undefined): Promise<ScheduleRow[]> {
    return m.query(
      'SELECT * FROM schedules WHERE account_id = $1 AND ($2::text[] IS NULL OR profile_ids <@ $2::text[]) ORDER BY created_at, id LIMIT 500',
      [accountId, visible ?? null],
    );
  },

  /** `lock`: hold the row until the transaction ends, so that queueing into it is one at a time. */
  async find(
    m: EntityManager,
    accountId: string,
    visible: string[] | undefined,
    id: string,
    lock = false,
  ): Promise<ScheduleRow | undefined> {
    const rows: ScheduleRow[] = await m.query(
      `SELECT * FROM schedules WHERE id = $1 AND account_id = $2 AND ($3::text[] IS NULL OR profile_ids <@ $3::text[])${lock ? ' FOR UPDATE' : ''}`,
      [id, accountId, visible ?? null],
    );
    return rows[0];
  },

  async update(m: EntityManager, accountId: string, id: string, f: ScheduleFields): Promise<ScheduleRow | undefined> {
    const [row] = await databaseOf(m).updateReturning<ScheduleRow>(
      `UPDATE schedules SET name = $3, timezone = $4, slots = $5::jsonb, profile_ids = $6, posts_per_slot = $7, default_for = $8, updated_at = now() WHERE id = $1 AND account_id = $2 RETURNING *`,
      [id, accountId, f.name, f.timezone, JSON.stringify(f.slots), f.profile_ids, f.posts_per_slot, f.default_for],
    );
    return row;
  },

  /** Makes the schedule the default of exactly these profiles; a profile that has another default schedule is refused by the key. */
  async setDefaults(m: EntityManager, accountId: string, scheduleId: string, profileIds: string[]): Promise<void> {
    await m.query('DELETE FROM schedule_defaults WHERE schedule_id = $1', [scheduleId]);
    if (!profileIds.length) return;
    const taken: { profile_id: string }[] = await m.query(
      `INSERT INTO schedule_defaults (account_id, profile_id, schedule_id) SELECT $1, unnest($2::text[]), $3
        ON CONFLICT (account_id, profile_id) DO NOTHING RETURNING profile_id`,
      [accountId, profileIds, scheduleId],
    );
    const refused = profileIds.filter((p) => !taken.some((t) => t.profile_id === p));
    if (refused.length)
      throw new AppError(
        'schedule_default_taken',
        `Profile ${refused.join(', ')} already has a default schedule; remove it from that schedule's defaultFor first.`,
        { field: 'defaultFor' },
      );
  },

  /** Each profile's default schedule id, for the profiles that have one. */
  async defaultsOf(m: EntityManager, accountId: string, profileIds: string[]): Promise<Map<string, string>> {
    const rows: { profile_id: string; schedule_id: string }[] = await m.query(
      'SELECT profile_id, schedule_id FROM schedule_defaults WHERE account_id = $1 AND profile_id = ANY($2::text[])',
      [accountId, profileIds],
    );
    return new Map(rows.map((r) => [r.profile_id, r.schedule_id]));
  },

  async delete(m: EntityManager, accountId: string, id: string): Promise<void> {
    await m.query('DELETE FROM schedules WHERE id = $1 AND account_id = $2', [id, accountId]);
  },

  /**
   * Posts holding each slot at or after `from`, per profile: a claim counts while its post is
   * live and still due at the slot (cancelled, rejected or moved posts have freed it).
   */
  async taken(m: EntityManager, scheduleId: string, from: Date): Promise<Map<string, number>> {
    const rows: { profile_id: string; slot_at: Date; n: number }[] = await m.query(
      `SELECT c.profile_id, c.slot_at, count(*)::int AS n FROM schedule_claims c JOIN posts p ON p.id = c.post_id
        WHERE c.schedule_id = $1 AND c.slot_at >= $2 AND p.scheduled_time = c.slot_at AND p.status NOT IN ('cancelled', 'rejected')
        GROUP BY c.profile_id, c.slot_at`,
      [scheduleId, from],
    );
    return new Map(rows.map((r) => [takenKey(r.profile_id, new Date(r.slot_at)), r.n]));
  },

  async claim(
    m: EntityManager,
    scheduleId: string,
    claims: { postId: string; profileId: string; at: Date }[],
  ): Promise<void> {
    for (const c of claims)
      await m.query('INSERT INTO schedule_claims (post_id, schedule_id, profile_id, slot_at) VALUES ($1, $2, $3, $4)', [
        c.postId,
        scheduleId,
        c.profileId,
        c.at,
      ]);
  },
};

export const takenKey = (profileId: string, at: Date) => `${profileId}@${at.toISOString()}`;
