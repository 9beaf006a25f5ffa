import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { commonVars, databaseRoleOf, loadConfig, openDataSource, type MigrationClass } from '@postbus/kit';
import type { CliCommand } from '../postbus';
import { optionalArg, printResult } from './auth-cli';

const SERVICES_DIR = join(__dirname, '..', '..', 'services');

/** Every service with migrations: its folder name is its PostgreSQL schema. */
export function servicesWithMigrations(): string[] {
  return readdirSync(SERVICES_DIR)
    .filter((name) => existsSync(join(SERVICES_DIR, name, 'src', 'migrations', 'index.ts')))
    .sort();
}

async function appliedIn(url: string, schema: string): Promise<string[]> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const exists = await c.query<{ t: string | null }>('SELECT to_regclass($1) AS t', [`"${schema}".migrations`]);
    if (!exists.rows[0].t) return [];
    return (await c.query<{ name: string }>(`SELECT name FROM "${schema}".migrations ORDER BY id`)).rows.map(
      (r) => r.name,
    );
  } finally {
    await c.end();
  }
}

/** The service's own role, when it owns the service's schema (a provisioned database): its migrations must leave objects it owns. */
async function ownRoleIn(url: string, service: string): Promise<string | undefined> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const role = databaseRoleOf(service);
    const found = await c.query(
      'SELECT 1 FROM pg_namespace WHERE nspname = $1 AND pg_get_userbyid(nspowner) = $2 AND $2 <> current_user',
      [service, role],
    );
    return found.rowCount ? role : undefined;
  } finally {
    await c.end();
  }
}

/**
 * Runs each service's pending migrations in its own schema (what a service does at start, under
 * the same advisory lock), then exits: for a release step before new replicas roll out.
 */
export const command: CliCommand = {
  name: 'migrate',
  summary: "Run the services' pending database migrations (each in its own schema), then exit",
  usage: 'migrate [--service auth,posts,…] [--json]',
  async run(args, { env }) {
    const { DATABASE_URL } = loadConfig({ DATABASE_URL: commonVars.DATABASE_URL }, env);
    const known = servicesWithMigrations();
    const asked =
      optionalArg(args, 'service')
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean) ?? known;
    const unknown = asked.filter((s) => !known.includes(s));
    if (unknown.length)
      throw new Error(`no migrations for ${unknown.join(', ')} (services with migrations: ${known.join(', ')})`);
    const result: Record<string, { ran: string[]; applied: number }> = {};
    for (const service of asked) {
      const before = await appliedIn(DATABASE_URL, service);
      const { migrations } = (await import(join(SERVICES_DIR, service, 'src', 'migrations', 'index.ts'))) as {
        migrations: MigrationClass[];
      };
      const ds = await openDataSource({
        url: DATABASE_URL,
        schema: service,
        migrations,
        poolSize: 1,
        role: await ownRoleIn(DATABASE_URL, service),
      });
      await ds.destroy();
      const after = await appliedIn(DATABASE_URL, service);
      result[service] = { ran: after.filter((m) => !before.includes(m)), applied: after.length };
    }
    if (args.json) return printResult(args, result);
    for (const [service, r] of Object.entries(result))
      console.log(
        `${service.padEnd(12)} ${r.ran.length ? `ran ${r.ran.join(', ')}` : 'up to date'} (${r.applied} applied)`,
      );
  },
};
