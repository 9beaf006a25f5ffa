import { databaseOf, type Database, type DatabaseSource } from '@postbus/kit';
import { SqlParams } from '../database/sql-params';

/** The arguments of `take_rate_slots` for one post: its keys and every window that applies to them. */
export interface RateSlotArgs {
  keys: string[];
  keyOf: number[];
  limits: number[];
  windows: number[];
}

/** A post may need a slot from more than one window: all are taken in one statement, or none. The call's parameters go into `params`. */
export function takeRateSlotsSql(params: SqlParams, args: RateSlotArgs): string {
  return `take_rate_slots(${params.add(args.keys, '::text[]')}, ${params.add(args.keyOf, '::int[]')}, ${params.add(args.limits, '::int[]')}, ${params.add(args.windows, '::bigint[]')})`;
}

/**
 * The sliding log of publish starts every publisher process shares (`rate_slots`), read and
 * written by `take_rate_slots` under transaction-scoped advisory locks.
 */
export class RateSlotRepository {
  private readonly db: Database;

  constructor(source: DatabaseSource) {
    this.db = databaseOf(source);
  }

  /** Takes one slot per key if every window has room; answers the milliseconds until the first one frees otherwise (0: taken). */
  async take(args: RateSlotArgs): Promise<number> {
    const params = new SqlParams();
    const row = await this.db.one<{ wait_ms: string | null }>(
      `SELECT ${takeRateSlotsSql(params, args)} AS wait_ms`,
      params.values,
    );
    return Number(row?.wait_ms ?? 0);
  }

  /** Removes the newest slot of each key. */
  async giveBackNewest(keys: string[]): Promise<void> {
    await this.db.query(
      `DELETE FROM rate_slots WHERE ctid IN (SELECT DISTINCT ON (key) ctid FROM rate_slots WHERE key = ANY($1) ORDER BY key, taken_at DESC)`,
      [keys],
    );
  }
}
