import { randomBytes } from 'node:crypto';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { Client } from 'pg';
import { databaseRoleOf, databaseUrlAs, openDataSource, provisionServiceRoles } from '../src';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `pb_kit_roles_${randomBytes(4).toString('hex')}`;
const url = Object.assign(new URL(ADMIN_URL), { pathname: `/${dbName}` }).toString();
const SERVICES = ['posts', 'connections'];

async function query(asUrl: string, sql: string): Promise<unknown[]> {
  const c = new Client({ connectionString: asUrl });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}
const as = (service: string) => databaseUrlAs(url, databaseRoleOf(service));
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'allowed',
    (err: { code?: string }) => err.code,
  );

class CreateNotes1700000000001 implements MigrationInterface {
  name = 'CreateNotes1700000000001';
  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE TABLE notes (id serial PRIMARY KEY, body text)');
    await q.query("INSERT INTO notes (body) VALUES ('kept')");
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE notes');
  }
}

beforeAll(async () => {
  await query(ADMIN_URL, `CREATE DATABASE "${dbName}"`);
  // A database from before the roles: an administrator's connection made a table in posts.
  await query(
    url,
    "CREATE SCHEMA posts; CREATE TABLE posts.legacy (id serial PRIMARY KEY, v text); INSERT INTO posts.legacy (v) VALUES ('old')",
  );
  await provisionServiceRoles(url, { services: SERVICES });
  for (const service of SERVICES)
    await (
      await openDataSource({ url: as(service), schema: service, migrations: [CreateNotes1700000000001], poolSize: 1 })
    ).destroy();
});
afterAll(async () => {
  await query(ADMIN_URL, `DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
});

test('when each service connects with its own role, then it migrates and uses its own schema, including what an administrator created there before', async () => {
  expect(await query(as('posts'), 'SELECT body FROM posts.notes')).toEqual([{ body: 'kept' }]);
  expect(await query(as('posts'), "INSERT INTO posts.legacy (v) VALUES ('new') RETURNING v")).toEqual([{ v: 'new' }]);
  const owners = await query(
    url,
    "SELECT nspname, pg_get_userbyid(nspowner) AS owner FROM pg_namespace WHERE nspname IN ('posts', 'connections') ORDER BY 1",
  );
  expect(owners).toEqual([
    { nspname: 'connections', owner: 'postbus_connections' },
    { nspname: 'posts', owner: 'postbus_posts' },
  ]);
});

test("when a service's role reaches for another service's tables, then reads and writes are refused both ways (posts ↔ connections)", async () => {
  expect(await codeOf(query(as('posts'), 'SELECT * FROM connections.notes'))).toBe('42501');
  expect(await codeOf(query(as('posts'), "INSERT INTO connections.notes (body) VALUES ('forged')"))).toBe('42501');
  expect(await codeOf(query(as('connections'), 'SELECT * FROM posts.notes'))).toBe('42501');
  expect(await codeOf(query(as('connections'), 'DELETE FROM posts.legacy'))).toBe('42501');
  expect(await query(url, 'SELECT count(*)::int AS n FROM connections.notes')).toEqual([{ n: 1 }]);
});

test('when a service role tries to widen its reach, then it may create no schema and nothing in public', async () => {
  expect(await codeOf(query(as('posts'), 'CREATE SCHEMA sneaky'))).toBe('42501');
  expect(await codeOf(query(as('posts'), 'CREATE TABLE public.sneaky (id int)'))).toBe('42501');
  expect(await codeOf(query(as('posts'), 'GRANT USAGE ON SCHEMA connections TO postbus_posts'))).toBe('42501');
});

test('when provisioning runs again, then nothing changes and nothing fails', async () => {
  await provisionServiceRoles(url, { services: SERVICES });
  expect(await query(as('connections'), 'SELECT body FROM connections.notes')).toEqual([{ body: 'kept' }]);
});
