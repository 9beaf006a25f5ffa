/**
 * `npm start`: checks PostgreSQL and RabbitMQ, starts the sandbox and every service as its own
 * process (each migrates its own schema), seeds a development account with sandbox profiles,
 * and prints the base URL, a development API key and a ready curl line. Ctrl-C stops all.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'amqplib';
import { Client } from 'pg';
import { openBus } from '@postbus/bus';
import { createLogger } from '@postbus/kit';
import { seedAccount } from '@postbus/testing';
import { SERVICE_LOADER, SERVICE_NODE_OPTIONS } from './service-node-options';

const root = join(__dirname, '..');
const env = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postbus',
  AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672',
  BUS_NAMESPACE: 'postbus',
  PORT: '3000',
  SANDBOX_PORT: '4010',
  LOG_LEVEL: 'warn',
  ...process.env,
} as Record<string, string>;
env.PUBLIC_BASE_URL ??= `http://localhost:${env.PORT}`;
env.THREADS_API_URL ??= `http://127.0.0.1:${env.SANDBOX_PORT}/threads/v1.0`;
env.SANDBOX_URL ??= `http://127.0.0.1:${env.SANDBOX_PORT}`;
env.NODE_OPTIONS ??= SERVICE_NODE_OPTIONS;
const baseUrl = env.PUBLIC_BASE_URL || `http://localhost:${env.PORT}`;
const SERVICES = ['sandbox', 'auth', 'connections', 'posts', 'media', 'publisher', 'mcp', 'webhooks', 'automation', 'gateway'];
const DEV_PLATFORMS = ['threads', 'instagram', 'facebook', 'tiktok', 'youtube'];

function fail(message: string): never {
  console.error(`\n✖ ${message}\n`);
  process.exit(1);
}

async function checkPostgres(): Promise<void> {
  const url = new URL(env.DATABASE_URL);
  const dbName = url.pathname.slice(1);
  const adminUrl = new URL(env.DATABASE_URL);
  adminUrl.pathname = '/postgres';
  const admin = new Client({ connectionString: adminUrl.toString(), connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (err) {
    fail(`PostgreSQL is not reachable at ${adminUrl.host} (${(err as Error).message}).
  Start it with:  docker compose up -d postgres
  or point DATABASE_URL at a running server.`);
  }
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName]);
  if (!exists.rowCount) await admin.query(`CREATE DATABASE "${dbName}"`);
  await admin.end();
}

async function checkRabbit(): Promise<void> {
  try {
    const c = await connect(env.AMQP_URL, { timeout: 3000 });
    await c.close();
  } catch (err) {
    fail(`RabbitMQ is not reachable at ${new URL(env.AMQP_URL).host} (${(err as Error).message}).
  Start it with:  docker compose up -d rabbitmq
  or point AMQP_URL at a running broker.`);
  }
}

function startService(name: string): ChildProcess {
  const child = spawn(process.execPath, [...SERVICE_LOADER, join(root, 'services', name, 'src', 'main.ts')], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  child.on('exit', (code, signal) => {
    if (!stopping) fail(`${name} exited (${signal ?? code}); see its log above.`);
  });
  return child;
}

async function waitHealthy(timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${env.PORT}/api/health`);
      if (res.ok) return;
      last = await res.text();
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  fail(`the system did not become healthy in time: ${last}`);
}

/**
 * A fresh development account at each start: the sandbox keeps its platform users in memory,
 * so profiles connected by an earlier run would hold tokens it no longer knows. The key is
 * also written to .data/dev-account.json for scripts.
 */
async function devAccount(): Promise<{ apiKey: string; profiles: { id: string; platform: string; handle: string }[] }> {
  const file = join(root, '.data', 'dev-account.json');
  const bus = await openBus({ url: env.AMQP_URL, namespace: env.BUS_NAMESPACE, logger: createLogger('start', 'error'), rpcTimeoutMs: 10_000 });
  try {
    const seeded = await seedAccount(bus.rpc, `http://127.0.0.1:${env.SANDBOX_PORT}`, { email: `dev-${Date.now()}@postbus.local`, platforms: DEV_PLATFORMS, tester: true });
    mkdirSync(join(root, '.data'), { recursive: true });
    writeFileSync(file, JSON.stringify(seeded, null, 2), { mode: 0o600 });
    return seeded;
  } finally {
    await bus.close();
  }
}

let stopping = false;
const children: ChildProcess[] = [];

async function main(): Promise<void> {
  await checkPostgres();
  await checkRabbit();
  for (const name of SERVICES) children.push(startService(name));
  const stop = () => {
    if (stopping) return;
    stopping = true;
    console.log('\nstopping…');
    for (const c of children) c.kill('SIGTERM');
    let left = children.length;
    for (const c of children) c.once('exit', () => --left === 0 && process.exit(0));
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await waitHealthy();
  const dev = await devAccount();
  const threads = dev.profiles.find((p) => p.platform === 'threads');
  console.log(`
Postbus is running.

  Base URL     ${baseUrl}
  API key      ${dev.apiKey}
  Profiles     ${dev.profiles.map((p) => `${p.platform}:${p.id} (@${p.handle})`).join(', ')}

Publish a post:

  curl -s -X POST ${baseUrl}/api/v1/publish -H "Authorization: Bearer ${dev.apiKey}" -H "Content-Type: application/json" -d '{"platforms":["threads"],"caption":"Hello from Postbus","profileIds":["${threads?.id}"]}'

then poll it:

  curl -s ${baseUrl}/api/v1/posts/<postId> -H "Authorization: Bearer ${dev.apiKey}"

Ctrl-C stops everything.
`);
}

main().catch((err) => fail((err as Error).stack ?? String(err)));
