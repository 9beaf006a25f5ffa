import { Client } from 'pg';
import { provisionServiceRoles } from '@postbus/kit';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import type { CliCommand } from '../postbus';
import { command as migrate, servicesWithMigrations } from '../commands/migrate.command';

let env: TestEnv;

beforeAll(async () => {
  env = await createTestEnv('cli_migrate');
});
afterAll(async () => {
  await env?.drop();
});

async function run(cmd: CliCommand, args: Record<string, string | true>): Promise<any> {
  const lines: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
  try {
    await cmd.run(
      { ...args, json: true },
      { bus: async () => Promise.reject(new Error('migrate needs no broker')), env: { DATABASE_URL: env.databaseUrl } },
    );
  } finally {
    log.mockRestore();
  }
  return JSON.parse(lines.join('\n'));
}

async function schemas(): Promise<string[]> {
  const c = new Client({ connectionString: env.databaseUrl });
  await c.connect();
  try {
    return (
      await c.query(
        `SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg_%' AND nspname NOT IN ('public', 'information_schema') ORDER BY 1`,
      )
    ).rows.map((r) => r.nspname);
  } finally {
    await c.end();
  }
}

test('when an operator runs migrate on an empty database, then every service with migrations gets its schema, and a second run has nothing to do', async () => {
  const first = await run(migrate, {});
  const second = await run(migrate, {});

  expect(servicesWithMigrations()).toEqual(
    expect.arrayContaining(['auth', 'connections', 'gateway', 'media', 'posts', 'publisher']),
  );
  expect(await schemas()).toEqual(servicesWithMigrations());
  for (const service of servicesWithMigrations()) {
    expect(first[service].ran.length).toBe(first[service].applied);
    expect(first[service].applied).toBeGreaterThan(0);
    expect(second[service]).toEqual({ ran: [], applied: first[service].applied });
  }
  expect(first.posts.ran).toContain('CreateOutbox1732200000000');
});

test('when an operator names a service without migrations, then migrate refuses and lists those it knows', async () => {
  await expect(run(migrate, { service: 'sandbox' })).rejects.toThrow(
    /no migrations for sandbox \(services with migrations: auth, /,
  );
});

test("when the database was provisioned with a role per service, then migrate leaves each service's tables owned by that role", async () => {
  const provisioned = await createTestEnv('cli_migrate_roles');
  try {
    await provisionServiceRoles(provisioned.databaseUrl);
    const lines: string[] = [];
    const log = jest.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    try {
      await migrate.run(
        { service: 'posts,connections', json: true },
        {
          bus: async () => Promise.reject(new Error('migrate needs no broker')),
          env: { DATABASE_URL: provisioned.databaseUrl },
        },
      );
    } finally {
      log.mockRestore();
    }
    const c = new Client({ connectionString: provisioned.databaseUrl });
    await c.connect();
    const { rows } = await c.query(
      `SELECT DISTINCT n.nspname AS schema, pg_get_userbyid(k.relowner) AS owner FROM pg_class k JOIN pg_namespace n ON n.oid = k.relnamespace WHERE n.nspname IN ('posts', 'connections') AND k.relkind = 'r' ORDER BY 1`,
    );
    await c.end();
    expect(rows).toEqual([
      { schema: 'connections', owner: 'postbus_connections' },
      { schema: 'posts', owner: 'postbus_posts' },
    ]);
  } finally {
    await provisioned.drop();
  }
});
