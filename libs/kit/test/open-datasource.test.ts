import { randomBytes } from 'node:crypto';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { Client } from 'pg';
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
