import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

/** Debian's pgbench (postgresql-client-15 or the server package), or whatever is on PATH. */
export function findPgbench(): string | undefined {
  for (const candidate of [
    '/usr/lib/postgresql/15/bin/pgbench',
    '/usr/lib/postgresql/16/bin/pgbench',
    '/usr/lib/postgresql/17/bin/pgbench',
  ])
    if (existsSync(candidate)) return candidate;
  const which = spawnSync('sh', ['-c', 'command -v pgbench'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : undefined;
}

/** Tables shaped like posts' own (same columns and indexes) and its outbox, in a schema of their own. */
const SETUP = `
  CREATE SCHEMA IF NOT EXISTS pgbench_ceiling;
  DROP TABLE IF EXISTS pgbench_ceiling.posts, pgbench_ceiling.outbox;
  CREATE TABLE pgbench_ceiling.posts (
    id text PRIMARY KEY, account_id text NOT NULL, request_id text NOT NULL, profile_id text NOT NULL,
    platform text NOT NULL, status text NOT NULL, caption text NOT NULL DEFAULT '', title text,
    media_urls jsonb NOT NULL DEFAULT '[]', media_id text, platform_meta jsonb, external_id text, category text,
    scheduled_time timestamptz NOT NULL, dispatched_at timestamptz, published_at timestamptz,
    failed_reason text, permalink text, platform_post_id text,
    created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now());
  CREATE INDEX ON pgbench_ceiling.posts (scheduled_time) WHERE status = 'scheduled' AND dispatched_at IS NULL;
  CREATE INDEX ON pgbench_ceiling.posts (account_id, created_at DESC, id DESC);
  CREATE TABLE pgbench_ceiling.outbox (
    seq bigserial PRIMARY KEY, id uuid NOT NULL UNIQUE, name text NOT NULL, data jsonb NOT NULL,
    request_id text, occurred_at timestamptz NOT NULL DEFAULT now());`;

/** One transaction: one post row and one outbox row, as a create that announces itself would write. */
const SCRIPT = `
\\set n random(1, 1000000000)
BEGIN;
INSERT INTO pgbench_ceiling.posts (id, account_id, request_id, profile_id, platform, status, caption, media_urls, scheduled_time)
  VALUES ('pst_' || md5(:client_id || '-' || :n || clock_timestamp()::text), 'acc_pgbench', 'crq_' || :n, 'prf_pgbench', 'threads', 'scheduled', 'A benchmark post', '[]', now() + interval '1 day');
INSERT INTO pgbench_ceiling.outbox (id, name, data) VALUES (gen_random_uuid(), 'post.created', '{"postId":"pst_pgbench"}');
END;
`;

export interface PgbenchResult {
  tps: number;
  latencyMs: number;
  transactions: number;
}

/**
 * The database's own ceiling for the write a create makes: pgbench with `clients` connections
 * for `seconds`, prepared statements, against the tables above.
 */
export async function runPgbench(
  databaseUrl: string,
  opts: { clients: number; seconds: number; binary: string },
): Promise<PgbenchResult> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(SETUP);
  } finally {
    await db.end();
  }
  const dir = mkdtempSync(join(tmpdir(), 'postbus-pgbench-'));
  const script = join(dir, 'create-post.sql');
  writeFileSync(script, SCRIPT);
  try {
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(
        opts.binary,
        [
          '-n',
          '-M',
          'prepared',
          '-c',
          String(opts.clients),
          '-j',
          '2',
          '-T',
          String(opts.seconds),
          '-f',
          script,
          databaseUrl,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let text = '';
      child.stdout.on('data', (d) => (text += d));
      child.stderr.on('data', (d) => (text += d));
      child.once('error', reject);
      child.once('exit', (code) =>
        code === 0 ? resolve(text) : reject(new Error(`pgbench exited ${code}:\n${text.slice(-2000)}`)),
      );
    });
    const num = (re: RegExp) => Number(out.match(re)?.[1]);
    return {
      tps: num(/tps = ([\d.]+)/),
      latencyMs: num(/latency average = ([\d.]+) ms/),
      transactions: num(/actually processed: (\d+)/),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    const cleanup = new Client({ connectionString: databaseUrl });
    await cleanup.connect();
    await cleanup.query('DROP SCHEMA pgbench_ceiling CASCADE').finally(() => cleanup.end());
  }
}
