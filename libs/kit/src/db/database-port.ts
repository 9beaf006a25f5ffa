import type { DataSource, EntityManager } from 'typeorm';

/**
 * The one door repositories use to reach PostgreSQL. Use cases hold it only to open a
 * transaction and hand the bound port to repositories; they never write SQL themselves.
 */
export interface Database {
  /** The rows a statement answers (none for a statement without RETURNING). */
  query<T = unknown>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** The first row, or undefined when there is none. */
  one<T = unknown>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** Rows of an UPDATE or DELETE … RETURNING: `query` with the intent named where the driver's answer differs. */
  updateReturning<T = unknown>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs `work` in one transaction (or inside the one this port is already bound to): it commits when `work` resolves. */
  transaction<R>(work: (tx: Database) => Promise<R>): Promise<R>;
}

/**
 * What a statement needs: the port, or TypeORM's manager of a transaction in progress (both
 * answer `query`). Lets a repository method join whichever transaction its caller holds.
 */
export type SqlRunner = Pick<Database, 'query'>;

const BOUND = Symbol('postbus.database');

type Source = DataSource | EntityManager;

/** What a port can be made from: TypeORM's DataSource, a transaction's EntityManager, or a port already. */
export type DatabaseSource = Source | Database;

/** A port over a TypeORM DataSource, or over an EntityManager already inside a transaction. */
export function databaseOf(source: DatabaseSource): Database {
  if (isDatabase(source)) return source;
  return new TypeOrmDatabase(source);
}

function isDatabase(source: DatabaseSource): source is Database {
  return (source as { [BOUND]?: true })[BOUND] === true;
}

/**
 * TypeORM answers an UPDATE or DELETE on PostgreSQL as `[rows, affectedCount]` and every other
 * statement as its rows (its PostgresQueryRunner). Rows are objects, never arrays, so the pair is
 * told apart from a result set by its shape.
 */
function rowsOf<T>(raw: unknown): T[] {
  if (Array.isArray(raw) && raw.length === 2 && Array.isArray(raw[0]) && typeof raw[1] === 'number')
    return raw[0] as T[];
  if (Array.isArray(raw)) return raw as T[];
  // DDL and utility statements answer no result set at all.
  return [];
}

class TypeOrmDatabase implements Database {
  readonly [BOUND] = true as const;

  constructor(private readonly source: Source) {}

  async query<T = unknown>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return rowsOf<T>(await this.source.query(sql, [...params]));
  }

  async one<T = unknown>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
    const rows = await this.query<T>(sql, params);
    return rows[0];
  }

  async updateReturning<T = unknown>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.query<T>(sql, params);
  }

  async transaction<R>(work: (tx: Database) => Promise<R>): Promise<R> {
    // An EntityManager bound to a query runner is already inside a transaction: TypeORM nests a
    // savepoint there, so a rolled-back inner block leaves the outer one usable.
    return this.source.transaction((m: EntityManager) => work(new TypeOrmDatabase(m)));
  }
}
