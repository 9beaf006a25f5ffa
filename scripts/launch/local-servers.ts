import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'amqplib';
import { Client } from 'pg';
import { redactUrl } from '@postbus/kit';
import { launchConfig } from './config';
import { clusterCanLiveUnder, findPgBin, PrivatePostgres } from './private-postgres';
import { findRabbitBin, PrivateRabbit } from './private-rabbitmq';
import { chooseServerWay, explainUnavailable, type ServerDecision, type ServerKind } from './server-way';

/** `start` works in the database `postbus`; the tests carve databases out of the server through `postgres`. */
export type ServersPurpose = 'start' | 'test';

const DEFAULT_URLS: Record<ServersPurpose, Record<ServerKind, string>> = {
  start: { postgres: 'postgres://postgres@127.0.0.1:5432/postbus', rabbitmq: 'amqp://guest:guest@127.0.0.1:5672' },
  test: { postgres: 'postgres://postgres@127.0.0.1:5432/postgres', rabbitmq: 'amqp://guest:guest@127.0.0.1:5672' },
};
/** Ports tried first for the private servers (below the kernel's ephemeral range); another free one when taken. */
const PREFERRED_PORTS = { postgres: 15432, amqp: 16572, dist: 16573 };

export class ServersUnavailable extends Error {}

export interface ObtainedServers {
  decisions: ServerDecision[];
  /** For the command's processes: the servers' URLs, and rabbitmqctl's target, where they are not the configured ones. */
  env: Record<string, string>;
}

/** Where this checkout keeps its private servers: .data/ (git-ignored), or a temporary directory the `postgres` user may reach. */
export function privateServerDirs(root: string): { postgres: string; rabbitmq: string } {
  const data = join(root, '.data');
  mkdirSync(data, { recursive: true });
  const rabbitmq = join(data, 'rabbitmq');
  if (clusterCanLiveUnder(data)) return { postgres: join(data, 'postgres'), rabbitmq };
  const outside = join(tmpdir(), `postbus-${createHash('sha256').update(root).digest('hex').slice(0, 8)}`);
  mkdirSync(outside, { recursive: true, mode: 0o755 });
  return { postgres: join(outside, 'postgres'), rabbitmq };
}

/** The node name of this checkout's private RabbitMQ: one per checkout on the machine. */
export function privateNodeName(root: string): string {
  return `postbus_${createHash('sha256').update(root).digest('hex').slice(0, 8)}@localhost`;
}

export async function postgresAnswers(url: string): Promise<boolean> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString(), connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function rabbitAnswers(url: string): Promise<boolean> {
  try {
    const connection = await connect(url, { timeout: 3000 });
    await connection.close();
    return true;
  } catch {
    return false;
  }
}

const answers: Record<ServerKind, (url: string) => Promise<boolean>> = {
  postgres: postgresAnswers,
  rabbitmq: rabbitAnswers,
};

function dockerWorks(): boolean {
  const ok = (args: string[]) => spawnSync('docker', args, { stdio: 'ignore', timeout: 20_000 }).status === 0;
  return ok(['info']) && ok(['compose', 'version']);
}

/**
 * Finds or brings up PostgreSQL and RabbitMQ for `npm start` or `npm test` (see server-way.ts
 * for the order), or throws ServersUnavailable saying what to install.
 */
export async function obtainServers(opts: {
  root: string;
  purpose: ServersPurpose;
  log: (line: string) => void;
}): Promise<ObtainedServers> {
  const { root, purpose, log } = opts;
  const mode = launchConfig.serversMode;
  const dirs = privateServerDirs(root);
  const urls = {
    postgres: launchConfig.databaseUrl ?? DEFAULT_URLS[purpose].postgres,
    rabbitmq: launchConfig.amqpUrl ?? DEFAULT_URLS[purpose].rabbitmq,
  };
  const named = { postgres: launchConfig.databaseUrl !== undefined, rabbitmq: launchConfig.amqpUrl !== undefined };
  const kept = {
    postgres: PrivatePostgres.initialised(dirs.postgres),
    rabbitmq: existsSync(join(dirs.rabbitmq, 'ports.json')),
  };
  const installed = { postgres: !!findPgBin(), rabbitmq: !!findRabbitBin() };
  let docker: boolean | undefined;
  const decisions: ServerDecision[] = [];
  for (const kind of ['postgres', 'rabbitmq'] as const) {
    const answering = mode === 'auto' || mode === 'configured' ? await answers[kind](urls[kind]) : false;
    // `docker info` can take seconds: asked only when a server does not answer
    if (!answering) docker ??= mode !== 'private' && mode !== 'configured' && dockerWorks();
    decisions.push({
      kind,
      url: redactUrl(urls[kind]),
      way: chooseServerWay(
        {
          answers: answering,
          named: named[kind],
          privateKept: kept[kind],
          docker: !!docker,
          installed: installed[kind],
        },
        mode,
      ),
    });
  }
  const unavailable = explainUnavailable(decisions, mode);
  if (unavailable) throw new ServersUnavailable(unavailable);

  const env: Record<string, string> = {};
  const way = (kind: ServerKind) => decisions.find((d) => d.kind === kind)!.way;
  const viaDocker = decisions.filter((d) => d.way === 'docker').map((d) => d.kind);
  if (viaDocker.length) await upWithDocker(root, viaDocker, urls, log);
  if (way('postgres') === 'private') {
    const pg = await ensurePrivatePostgres(dirs.postgres, log);
    const url = new URL(pg.url);
    url.pathname = new URL(DEFAULT_URLS[purpose].postgres).pathname;
    env.DATABASE_URL = url.toString();
  }
  if (way('rabbitmq') === 'private') {
    const rabbit = await ensurePrivateRabbit(dirs.rabbitmq, privateNodeName(root), log);
    Object.assign(env, { AMQP_URL: rabbit.url, ...rabbit.cliEnv });
  }
  return { decisions, env };
}

/** `docker compose up -d` the compose file's services, then waits until they answer at the default URLs. */
async function upWithDocker(
  root: string,
  kinds: ServerKind[],
  urls: Record<ServerKind, string>,
  log: (line: string) => void,
): Promise<void> {
  const services = kinds.map((k) => (k === 'postgres' ? 'postgres' : 'rabbitmq'));
  log(`Starting ${services.join(' and ')} with Docker (docker compose up -d ${services.join(' ')})…`);
  // https://docs.docker.com/reference/cli/docker/compose/up/
  const up = spawnSync('docker', ['compose', 'up', '-d', ...services], { cwd: root, stdio: ['ignore', 2, 2] });
  if (up.status !== 0)
    throw new ServersUnavailable(`docker compose up -d ${services.join(' ')} failed (exit ${up.status}).`);
  for (const kind of kinds) {
    if (!(await waitUntil(() => answers[kind](urls[kind]), 120_000)))
      throw new ServersUnavailable(
        `${kind} was started with Docker but does not answer at ${redactUrl(urls[kind])} after 2 minutes (docker compose logs ${kind}).`,
      );
  }
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

function portIsFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** `preferred` when free, else another free port below the kernel's ephemeral range, never one of `taken`. */
export async function pickPort(preferred: number, taken: number[] = []): Promise<number> {
  if (!taken.includes(preferred) && (await portIsFree(preferred))) return preferred;
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (!taken.includes(port) && (await portIsFree(port))) return port;
  }
}

/** The cluster in `dir`: running (reused as it is), stopped (started), or new (initdb, then started). */
export async function ensurePrivatePostgres(dir: string, log: (line: string) => void): Promise<PrivatePostgres> {
  const running = PrivatePostgres.runningPort(dir);
  if (running) {
    log(`PostgreSQL: the private cluster in ${dir} is running on port ${running}.`);
    return PrivatePostgres.open(dir, running);
  }
  const began = Date.now();
  const port = await pickPort(PREFERRED_PORTS.postgres);
  const fresh = !PrivatePostgres.initialised(dir);
  const pg = fresh ? await PrivatePostgres.create(port, { dir }) : PrivatePostgres.open(dir, port);
  await pg.start(port);
  log(
    `PostgreSQL: ${fresh ? 'made and started a private cluster' : 'started the private cluster'} in ${dir} on port ${port} (${((Date.now() - began) / 1000).toFixed(1)} s).`,
  );
  return pg;
}

/** The node in `dir`: running (reused), or started on its earlier ports when they are still free. */
export async function ensurePrivateRabbit(
  dir: string,
  node: string,
  log: (line: string) => void,
): Promise<PrivateRabbit> {
  const portsFile = join(dir, 'ports.json');
  const saved = existsSync(portsFile)
    ? (JSON.parse(readFileSync(portsFile, 'utf8')) as { port: number; distPort: number })
    : undefined;
  if (saved && PrivateRabbit.runningPid(dir) && (await rabbitAnswers(`amqp://guest:guest@127.0.0.1:${saved.port}`))) {
    log(`RabbitMQ: the private node ${node} is running on port ${saved.port}.`);
    return PrivateRabbit.create(saved.port, saved.distPort, { dir, node });
  }
  const began = Date.now();
  const port = await pickPort(saved?.port ?? PREFERRED_PORTS.amqp);
  const distPort = await pickPort(saved?.distPort ?? PREFERRED_PORTS.dist, [port]);
  const rabbit = PrivateRabbit.create(port, distPort, { dir, node });
  await rabbit.start();
  writeFileSync(portsFile, JSON.stringify({ port, distPort }));
  log(
    `RabbitMQ: started the private node ${node} in ${dir} on port ${port} (${((Date.now() - began) / 1000).toFixed(1)} s).`,
  );
  return rabbit;
}
