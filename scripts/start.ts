/**
 * `npm start`: checks PostgreSQL and RabbitMQ, starts the sandbox and every service as its own
 * process (each migrates its own schema), seeds a development account with sandbox profiles,
 * and prints the base URL, a development API key, a ready curl line and how long it took since
 * the command began. `--first-post` also publishes a sandbox post with that key and prints the
 * time until it is `posted`. Ctrl-C stops all; so does any failure (a service that exits, a
 * system that never becomes healthy).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'amqplib';
import { Client } from 'pg';
import { openBus, operatorToolKeys, provisionBrokerUsers } from '@postbus/bus';
import { createLogger, DATABASE_SERVICES, databaseRoleOf, databaseUrlAs, provisionServiceRoles } from '@postbus/kit';
import { seedAccount } from '@postbus/testing';
import { ServiceGroup } from './launch/service-group';
import { SERVICE_NODE_OPTIONS } from './service-node-options';

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
env.THREADS_API_URL ??= `http://127.0.0.1:${env.SANDBOX_PORT}/threads`;
env.SANDBOX_URL ??= `http://127.0.0.1:${env.SANDBOX_PORT}`;
// On a laptop, media links may point at a local server; deployments keep the publisher off loopback.
env.PUBLISHER_ALLOW_LOOPBACK_MEDIA ??= 'true';
env.NODE_OPTIONS ??= SERVICE_NODE_OPTIONS;
/** When the command began: scripts/run.mjs passes its own start (npm start), else this process's. */
const startedAt = Number(env.POSTBUS_STARTED_AT) || performance.timeOrigin;
const firstPostWanted = process.argv.includes('--first-post');
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const baseUrl = env.PUBLIC_BASE_URL || `http://localhost:${env.PORT}`;
const SERVICES = [
  'sandbox',
  'auth',
  'connections',
  'posts',
  'media',
  'transcoder',
  'publisher',
  'mcp',
  'webhooks',
  'automation',
  'gateway',
];
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
  npm start brings one up itself (Docker, or PostgreSQL installed here); otherwise start it with
  docker compose up -d postgres, or point DATABASE_URL at a running server.`);
  }
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName]);
  if (!exists.rowCount) await admin.query(`CREATE DATABASE "${dbName}"`);
  await admin.end();
}

/**
 * Each service connects with a PostgreSQL role of its own (`postbus_<service>`, its schema only),
 * under a password made for this run; DATABASE_URL's user must be allowed to create roles.
 */
async function serviceDatabaseUrls(): Promise<Record<string, string>> {
  const passwords = Object.fromEntries(DATABASE_SERVICES.map((service) => [service, randomBytes(18).toString('hex')]));
  try {
    await provisionServiceRoles(env.DATABASE_URL, { passwords });
  } catch (err) {
    fail(`Could not give each service its own PostgreSQL role (${(err as Error).message}).
  DATABASE_URL must name a user that may create roles (docker compose's postgres does).`);
  }
  return Object.fromEntries(
    DATABASE_SERVICES.map((service) => [
      service,
      databaseUrlAs(env.DATABASE_URL, databaseRoleOf(service), passwords[service]),
    ]),
  );
}

/**
 * And a RabbitMQ user of its own (`postbus_<service>`, its own queues only), made through
 * rabbitmqctl on this machine or the broker's management API; AMQP_URL's user is the administrator.
 */
async function serviceBrokerUrls(): Promise<Record<string, string>> {
  try {
    return await provisionBrokerUsers(env.AMQP_URL);
  } catch (err) {
    return fail((err as Error).message);
  }
}

/** What one service is started with: its own database role and broker user, and nothing for what it does not use. */
function envOf(
  name: string,
  databaseUrls: Record<string, string>,
  brokerUrls: Record<string, string>,
): Record<string, string> {
  // The administrators' URLs and the Erlang cookie of a private broker node stay with this process.
  const {
    DATABASE_URL: _admin,
    AMQP_URL: _broker,
    RABBITMQ_ERLANG_COOKIE: _cookie,
    RABBITMQ_NODENAME: _node,
    POSTBUS_STARTED_AT: _began,
    ...rest
  } = env;
  return {
    ...rest,
    ...(databaseUrls[name] && { DATABASE_URL: databaseUrls[name] }),
    ...(brokerUrls[name] && { AMQP_URL: brokerUrls[name] }),
  };
}

async function checkRabbit(): Promise<void> {
  try {
    const c = await connect(env.AMQP_URL, { timeout: 3000 });
    await c.close();
  } catch (err) {
    fail(`RabbitMQ is not reachable at ${new URL(env.AMQP_URL).host} (${(err as Error).message}).
  npm start brings one up itself (Docker, or RabbitMQ installed here); otherwise start it with
  docker compose up -d rabbitmq, or point AMQP_URL at a running broker.`);
  }
}

async function waitHealthy(signal: AbortSignal, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline && !signal.aborted) {
    try {
      const res = await fetch(`http://127.0.0.1:${env.PORT}/api/health`);
      if (res.ok) return;
      last = await res.text();
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`the system did not become healthy in time: ${last}`);
}

/**
 * A fresh development account at each start: the sandbox keeps its platform users in memory,
 * so profiles connected by an earlier run would hold tokens it no longer knows. The key is
 * also written to .data/dev-account.json for scripts.
 */
async function devAccount(): Promise<{ apiKey: string; profiles: { id: string; platform: string; handle: string }[] }> {
  const file = join(root, '.data', 'dev-account.json');
  const bus = await openBus({
    url: env.AMQP_URL,
    namespace: env.BUS_NAMESPACE,
    logger: createLogger('start', 'error'),
    rpcTimeoutMs: 10_000,
    keys: operatorToolKeys(env),
  });
  try {
    const seeded = await seedAccount(bus.rpc, `http://127.0.0.1:${env.SANDBOX_PORT}`, {
      email: `dev-${Date.now()}@postbus.local`,
      platforms: DEV_PLATFORMS,
      tester: true,
    });
    mkdirSync(join(root, '.data'), { recursive: true });
    writeFileSync(file, JSON.stringify(seeded, null, 2), { mode: 0o600 });
    return seeded;
  } finally {
    await bus.close();
  }
}

const services = new ServiceGroup({ root, echo: true });
let stopped: Promise<void> | undefined;
/** Stops every process of this run, once, however many paths ask. */
const stopAll = () => (stopped ??= services.stop());

async function main(): Promise<void> {
  await checkPostgres();
  const databaseUrls = await serviceDatabaseUrls();
  await checkRabbit();
  const brokerUrls = await serviceBrokerUrls();
  const stop = () => {
    if (stopped) return;
    console.log('\nstopping…');
    void stopAll().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await services
    .start(
      SERVICES.map((name) => ({
        name,
        entry: join('services', name, 'src', 'main.ts'),
        env: envOf(name, databaseUrls, brokerUrls),
      })),
      (signal) => waitHealthy(signal),
    )
    .catch((err: Error) => stopAllAndFail(err.message));
  // From here on, a service that dies takes the others down with it and says why.
  services.crashed.catch((err: Error) => stopAllAndFail(err.message));
  const dev = await devAccount();
  const threads = dev.profiles.find((p) => p.platform === 'threads');
  console.log(`
Postbus is running.

  Base URL     ${baseUrl}
  API key      ${dev.apiKey}
  Profiles     ${dev.profiles.map((p) => `${p.platform}:${p.id} (@${p.handle})`).join(', ')}
  Ready in     ${seconds(startedAt)} since the command began

Publish a post:

  curl -s -X POST ${baseUrl}/api/v1/publish -H "Authorization: Bearer ${dev.apiKey}" -H "Content-Type: application/json" -d '{"platforms":["threads"],"caption":"Hello from Postbus","profileIds":["${threads?.id}"]}'

then poll it:

  curl -s ${baseUrl}/api/v1/posts/<postId> -H "Authorization: Bearer ${dev.apiKey}"

Ctrl-C stops everything.
`);
  if (firstPostWanted && threads) await publishFirstPost(dev.apiKey, threads.id);
}

/**
 * What the printed curl does, done here: publishes a post to the sandbox's Threads with the
 * development key, long-polls it to its end, and prints the time from the command's start.
 */
async function publishFirstPost(apiKey: string, profileId: string): Promise<void> {
  const api = `http://127.0.0.1:${env.PORT}/api/v1`;
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const created = await fetch(`${api}/publish`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ platforms: ['threads'], caption: 'Hello from Postbus', profileIds: [profileId] }),
  });
  if (!created.ok)
    return console.log(`First post: POST /api/v1/publish answered ${created.status}: ${await created.text()}`);
  const [postId] = ((await created.json()) as { postIds: string[] }).postIds;
  for (let polls = 0; polls < 4; polls++) {
    // long poll: answers as soon as the post is posted or failed (Postbus-Final: true)
    const res = await fetch(`${api}/posts/${postId}?waitFor=final&timeout=25`, { headers });
    const post = (await res.json()) as { status: string; permalink?: string; failedReason?: string };
    if (res.headers.get('postbus-final') !== 'true') continue;
    if (post.status === 'posted')
      return console.log(
        `First post ${postId} posted ${seconds(startedAt)} after the command began: ${post.permalink}\n`,
      );
    return console.log(`First post ${postId} ended ${post.status}: ${post.failedReason ?? ''}\n`);
  }
  console.log(`First post ${postId} was not final after 100 s; see GET /api/v1/posts/${postId}.\n`);
}

/** Nothing started by this run outlives it. */
async function stopAllAndFail(message: string): Promise<never> {
  await stopAll();
  return fail(message);
}

main().catch((err: Error) => stopAllAndFail(err.stack ?? String(err)));
