import type { DataSource, EntityManager } from 'typeorm';

/** The rows of an `UPDATE … RETURNING`: TypeORM answers `[rows, count]` for UPDATE and DELETE on PostgreSQL. */
export async function updateReturning<T>(db: DataSource | EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  const raw: unknown = await db.query(sql, params);
  if (Array.isArray(raw) && raw.length === 2 && Array.isArray(raw[0]) && typeof raw[1] === 'number') return raw[0] as T[];
  return raw as T[];
}
