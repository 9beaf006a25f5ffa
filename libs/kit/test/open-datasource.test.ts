import { randomBytes } from 'node:crypto';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { Client, type Pool } from 'pg';
import { openDataSource } from '../src';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `pb_kit_ds_${randomBytes(4).toString('hex')}`;
const url = Object.assign(new URL(ADMIN_URL), { pathname: `/${dbName}` }).toString();

beforeAll(async () => {
  const c = new Client({ connectionString: ADMIN_URL });
  await c.connect();
  await c.query(`CREATE DATABASE "${dbName}"`);
  await c.end();
});
afterAll(async () => {
  const c = new Client({ connectionString: ADMIN_URL });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  await c.end();
});

/** Slow enough that replicas starting together would run it side by side without the lock. */
class CreateLedger1700000000001 implements MigrationInterface {
  name = 'CreateLedger1700000000001';
  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE TABLE ledger (n int)');
    await q.query('SELECT pg_sleep(0.2)');
    await q.query('INSERT INTO ledger VALUES (1)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE ledger');
  }
}

test('when three replicas open the same schema at once, then its migrations run once and all three start', async () => {
  const replicas = await Promise.all(
    [1, 2, 3].map(() =>
      openDataSource({ url, schema: 'ledgers', migrations: [CreateLedger1700000000001], poolSize: 2 }),
    ),
  );
  try {
    const [{ runs }] = await replicas[0].query('SELECT count(*)::int AS runs FROM migrations');
    const [{ rows }] = await replicas[1].query('SELECT count(*)::int AS rows FROM ledger');
    expect(runs).toBe(1);
    expect(rows).toBe(1);
  } finally {
    for (const ds of replicas) await ds.destroy();
  }
});

test('when the server ends a session the pool has lent out, then the process lives on and the pool replaces it', async () => {
  const ds = await openDataSource({ url, schema: 'sessions', migrations: [], poolSize: 2 });
  // The pool itself, as TypeORM holds it: a client lent out without a query runner's listener.
  const pool = (ds.driver as unknown as { master: Pool }).master;
  const client = await pool.connect();
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const admin = new Client({ connectionString: url });
  await admin.connect();
  await admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
  await admin.end();
  // The server's FATAL 57P01 reaches the lent client while it is idle between queries.
  await new Promise((resolve) => setTimeout(resolve, 300));
  await expect(client.query('SELECT 1')).rejects.toThrow();
  client.release();
  await expect(ds.query('SELECT 1 AS one')).resolves.toEqual([{ one: 1 }]);
  await ds.destroy();
});
