import { randomBytes } from 'node:crypto';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import type { DataSource } from 'typeorm';
import { Client } from 'pg';
import { databaseOf, openDataSource, type Database } from '../src';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `pb_kit_port_${randomBytes(4).toString('hex')}`;
const url = Object.assign(new URL(ADMIN_URL), { pathname: `/${dbName}` }).toString();

class CreateNotes1700000000001 implements MigrationInterface {
  name = 'CreateNotes1700000000001';
  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE TABLE notes (id int PRIMARY KEY, body text NOT NULL)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE notes');
  }
}

let ds: DataSource;
let db: Database;

beforeAll(async () => {
  const c = new Client({ connectionString: ADMIN_URL });
  await c.connect();
  await c.query(`CREATE DATABASE "${dbName}"`);
  await c.end();
  ds = await openDataSource({ url, schema: 'notes', migrations: [CreateNotes1700000000001], poolSize: 2 });
  db = databaseOf(ds);
});
afterAll(async () => {
  await ds?.destroy();
  const c = new Client({ connectionString: ADMIN_URL });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  await c.end();
});
beforeEach(async () => {
  await ds.query('TRUNCATE notes');
});

const bodies = async (): Promise<string[]> =>
  (await db.query<{ body: string }>('SELECT body FROM notes ORDER BY id')).map((r) => r.body);

test('when a statement returns rows, then query answers them and one answers the first or undefined', async () => {
  const inserted = await db.query<{ id: number }>('INSERT INTO notes (id, body) VALUES (1, $1), (2, $2) RETURNING id', [
    'a',
    'b',
  ]);
  expect(inserted).toEqual([{ id: 1 }, { id: 2 }]);
  expect(await db.one<{ body: string }>('SELECT body FROM notes WHERE id = $1', [2])).toEqual({ body: 'b' });
  expect(await db.one('SELECT body FROM notes WHERE id = $1', [3])).toBeUndefined();
});

test('when an UPDATE or DELETE … RETURNING runs, then updateReturning answers its rows, not the [rows, count] pair', async () => {
  await db.query("INSERT INTO notes (id, body) VALUES (1, 'a'), (2, 'b'), (3, 'c')");
  const updated = await db.updateReturning<{ id: number; body: string }>(
    'UPDATE notes SET body = upper(body) WHERE id <= $1 RETURNING id, body',
    [2],
  );
  expect(updated.sort((x, y) => x.id - y.id)).toEqual([
    { id: 1, body: 'A' },
    { id: 2, body: 'B' },
  ]);
  expect(await db.updateReturning('UPDATE notes SET body = $1 WHERE id = 9 RETURNING id', ['z'])).toEqual([]);
  expect(await db.updateReturning<{ id: number }>('DELETE FROM notes WHERE id = $1 RETURNING id', [3])).toEqual([
    { id: 3 },
  ]);
  // Through query too, the port answers rows: the pair never reaches a caller.
  expect(await db.query<{ id: number }>("UPDATE notes SET body = 'y' WHERE id = 1 RETURNING id")).toEqual([{ id: 1 }]);
  expect(await db.one<{ id: number }>("UPDATE notes SET body = 'y' WHERE id = 1 RETURNING id")).toEqual({ id: 1 });
  expect(await db.query("UPDATE notes SET body = 'y' WHERE id = 1")).toEqual([]);
  // The same statement wrapped in a CTE already answers rows; updateReturning passes them through.
  expect(
    await db.updateReturning<{ id: number }>(
      "WITH c AS (UPDATE notes SET body = 'x' WHERE id = 1 RETURNING id) SELECT id FROM c",
    ),
  ).toEqual([{ id: 1 }]);
});

test('when work inside a transaction fails, then nothing it wrote is kept', async () => {
  await expect(
    db.transaction(async (tx) => {
      await tx.query("INSERT INTO notes (id, body) VALUES (1, 'kept?')");
      await tx.query("INSERT INTO notes (id, body) VALUES (1, 'duplicate')");
    }),
  ).rejects.toThrow();
  expect(await bodies()).toEqual([]);
});

test('when a transaction is open, then its port sees its own writes and others see them only after commit', async () => {
  let seenOutside: string[] = ['unread'];
  const answer = await db.transaction(async (tx) => {
    await tx.query("INSERT INTO notes (id, body) VALUES (1, 'inside')");
    seenOutside = await bodies();
    return tx.one<{ body: string }>('SELECT body FROM notes WHERE id = 1');
  });
  expect(answer).toEqual({ body: 'inside' });
  expect(seenOutside).toEqual([]);
  expect(await bodies()).toEqual(['inside']);
});

test('when a transaction port opens a transaction, then the inner one rolls back alone and the outer commits', async () => {
  await db.transaction(async (tx) => {
    await tx.query("INSERT INTO notes (id, body) VALUES (1, 'outer')");
    await tx
      .transaction(async (inner) => {
        await inner.query("INSERT INTO notes (id, body) VALUES (2, 'inner')");
        throw new Error('inner gives up');
      })
      .catch(() => undefined);
  });
  expect(await bodies()).toEqual(['outer']);
});

test('when a port is wrapped again, then it is the same port', () => {
  expect(databaseOf(db)).toBe(db);
});
