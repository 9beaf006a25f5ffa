import type { DataSource, EntityManager } from 'typeorm';
import type { Principal, Series } from '@postbus/contracts';

export type SeriesStatus = Series['status'];

export interface SeriesRow {
  id: string;
  account_id: string;
  principal: Principal;
  rule: string;
  timezone: string;
  first_local: string;
  first_time: Date;
  template: Record<string, unknown>;
  status: SeriesStatus;
  next_index: number;
  next_time: Date | null;
  idempotency_key: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface OccurrenceRow {
  series_id: string;
  index: number;
  scheduled_time: Date;
  post_ids: string[];
  error_code: string | null;
  error_message: string | null;
}

type Db = DataSource | EntityManager;

/** Recurring posts: the series and the record of each occurrence created or refused. */
export const seriesRepository = {
  async insert(m: Db, row: Omit<SeriesRow, 'created_at' | 'updated_at'>): Promise<SeriesRow | undefined> {
    const rows: SeriesRow[] = await m.query(
      `INSERT INTO series (id, account_id, principal, rule, timezone, first_local, first_time, template, status, next_index, next_time, idempotency_key)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING RETURNING *`,
      [
        row.id,
        row.account_id,
        JSON.stringify(row.principal),
        row.rule,
        row.timezone,
        row.first_local,
        row.first_time,
        JSON.stringify(row.template),
        row.status,
        row.next_index,
        row.next_time,
        row.idempotency_key,
      ],
    );
    return rows[0];
  },

  async find(m: Db, accountId: string, id: string): Promise<SeriesRow | undefined> {
    const rows: SeriesRow[] = await m.query('SELECT * FROM series WHERE account_id = $1 AND id = $2', [accountId, id]);
    return rows[0];
  },

  async findByIdempotencyKey(m: Db, accountId: string, key: string): Promise<SeriesRow | undefined> {
    const rows: SeriesRow[] = await m.query('SELECT * FROM series WHERE account_id = $1 AND idempotency_key = $2', [
      accountId,
      key,
    ]);
    return rows[0];
  },

  /** Active series whose next occurrence falls before `through`, oldest first. */
  async due(m: Db, through: Date, limit: number): Promise<SeriesRow[]> {
    return m.query(`SELECT * FROM series WHERE status = 'active' AND next_time <= $1 ORDER BY next_time LIMIT $2`, [
      through,
      limit,
    ]);
  },

  async occurrences(m: Db, seriesId: string): Promise<OccurrenceRow[]> {
    return m.query('SELECT * FROM series_occurrences WHERE series_id = $1 ORDER BY index', [seriesId]);
  },

  /** Records an occurrence once: a second record of the same index (a repeated extension) changes nothing. */
  async recordOccurrence(m: Db, o: OccurrenceRow): Promise<void> {
    await m.query(
      `INSERT INTO series_occurrences (series_id, index, scheduled_time, post_ids, error_code, error_message)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (series_id, index) DO NOTHING`,
      [o.series_id, o.index, o.scheduled_time, o.post_ids, o.error_code, o.error_message],
    );
  },

  /** Moves the series on to its next occurrence; never backwards when two extensions race. */
  async advance(m: Db, id: string, nextIndex: number, nextTime: Date | null): Promise<void> {
    await m.query(
      `UPDATE series SET next_index = $2, next_time = $3, status = CASE WHEN $3::timestamptz IS NULL AND status = 'active' THEN 'ended' ELSE status END, updated_at = now()
        WHERE id = $1 AND next_index < $2`,
      [id, nextIndex, nextTime],
    );
  },

  async setTemplate(m: Db, accountId: string, id: string, template: Record<string, unknown>): Promise<void> {
    await m.query('UPDATE series SET template = $3, updated_at = now() WHERE account_id = $1 AND id = $2', [
      accountId,
      id,
      JSON.stringify(template),
    ]);
  },

  async cancel(m: Db, accountId: string, id: string): Promise<void> {
    await m.query(
      `UPDATE series SET status = 'cancelled', next_time = NULL, updated_at = now() WHERE account_id = $1 AND id = $2 AND status <> 'cancelled'`,
      [accountId, id],
    );
  },
};

export function toSeries(row: SeriesRow, occurrences: OccurrenceRow[]): Series {
  return {
    id: row.id,
    rule: row.rule,
    timezone: row.timezone,
    status: row.status,
    firstTime: new Date(row.first_time).toISOString(),
    nextTime: row.next_time ? new Date(row.next_time).toISOString() : null,
    template: row.template,
    occurrences: occurrences.map((o) => ({
      index: o.index,
      scheduledTime: new Date(o.scheduled_time).toISOString(),
      postIds: o.post_ids,
      error: o.error_code ? { code: o.error_code, error: o.error_message ?? o.error_code } : null,
    })),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
