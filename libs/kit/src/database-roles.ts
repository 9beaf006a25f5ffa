import { Client } from 'pg';

/** The services that keep tables, each in the schema of its name, owned by a PostgreSQL role of its own. */
export const DATABASE_SERVICES = [
  'auth',
  'automation',
  'connections',
  'gateway',
  'media',
  'posts',
  'publisher',
  'webhooks',
] as const;

export function databaseRoleOf(service: string): string {
  return `postbus_${service}`;
}

/** `url` with another user (and password): the connection URL a service gets for its own role. */
export function databaseUrlAs(url: string, role: string, password = ''): string {
  const u = new URL(url);
  u.username = role;
  u.password = password;
  return u.toString();
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

const DUPLICATE = new Set(['42710', '23505']); // duplicate_object; unique_violation when two sessions race

async function ensureRole(c: Client, role: string, password: string | undefined): Promise<void> {
  const exists = await c.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
  if (!exists.rowCount) {
    await c
      .query(`CREATE ROLE ${quote(role)} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT`)
      .catch((err: { code?: string }) => {
        if (!DUPLICATE.has(err.code ?? '')) throw err;
      });
  }
  if (password) await c.query(`ALTER ROLE ${quote(role)} PASSWORD ${c.escapeLiteral(password)}`);
}

/**
 * The schema belongs to its role, and so does everything already in it: objects that an
 * administrator's connection created before the roles existed move over, so the service can
 * keep migrating them.
 */
async function ensureSchemaOwnedBy(c: Client, schema: string, role: string): Promise<void> {
  await c
    .query(`CREATE SCHEMA IF NOT EXISTS ${quote(schema)} AUTHORIZATION ${quote(role)}`)
    .catch((err: { code?: string }) => {
      if (!DUPLICATE.has(err.code ?? '')) throw err;
    });
  await c.query(`ALTER SCHEMA ${quote(schema)} OWNER TO ${quote(role)}`);
  const strays = await c.query(
    `SELECT format('ALTER TABLE %I.%I OWNER TO %I', n.nspname, k.relname, $2::text) AS stmt
       FROM pg_class k JOIN pg_namespace n ON n.oid = k.relnamespace
      WHERE n.nspname = $1 AND k.relkind IN ('r', 'p', 'v', 'm', 'f') AND pg_get_userbyid(k.relowner) <> $2
     UNION ALL
     SELECT format('ALTER SEQUENCE %I.%I OWNER TO %I', n.nspname, k.relname, $2::text)
       FROM pg_class k JOIN pg_namespace n ON n.oid = k.relnamespace
      WHERE n.nspname = $1 AND k.relkind = 'S' AND pg_get_userbyid(k.relowner) <> $2
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = k.oid AND d.deptype IN ('a', 'i'))
     UNION ALL
     SELECT format('ALTER ROUTINE %s OWNER TO %I', p.oid::regprocedure, $2::text)
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = $1 AND pg_get_userbyid(p.proowner) <> $2`,
    [schema, role],
  );
  for (const { stmt } of strays.rows as { stmt: string }[]) await c.query(stmt);
}

/**
 * Run with an administrator's URL (`npm start`, the tests, the deployment's bootstrap Job): gives
 * each service a login role that owns its schema and nothing else, and takes from everybody else
 * the right to connect to the database or create objects in `public`. A role then reads and writes
 * only its own schema: another service's tables answer "permission denied". Idempotent; roles are
 * per server, so they are created once and reused by every database on it.
 */
export async function provisionServiceRoles(
  adminUrl: string,
  opts: { services?: readonly string[]; passwords?: Record<string, string> } = {},
): Promise<void> {
  const c = new Client({ connectionString: adminUrl });
  await c.connect();
  try {
    const { rows } = await c.query<{ db: string }>('SELECT current_database() AS db');
    const db = quote(rows[0].db);
    // Two runs provisioning one database at once take turns (two databases racing on a role are caught above).
    await c.query('SELECT pg_advisory_lock(hashtext($1))', ['postbus.roles']);
    for (const service of opts.services ?? DATABASE_SERVICES) {
      const role = databaseRoleOf(service);
      await ensureRole(c, role, opts.passwords?.[service]);
      await c.query(`GRANT CONNECT ON DATABASE ${db} TO ${quote(role)}`);
      await ensureSchemaOwnedBy(c, service, role);
    }
    await c.query(`REVOKE ALL ON DATABASE ${db} FROM PUBLIC`);
    await c.query('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
  } finally {
    await c.end(); // ends the session and its lock
  }
}
