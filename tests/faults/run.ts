/**
 * `pnpm test:faults`: 2,000 posts scheduled across the five platforms, published by the whole
 * system (every service its own process, two publishers) against a PostgreSQL cluster and a
 * RabbitMQ node of its own, while faults strike one after the other: a publisher SIGKILLed,
 * RabbitMQ restarted, PostgreSQL restarted, posts stopped for 10 s, the sandbox timing out
 * for 5 s. Afterwards every post must be in one terminal state that the publisher agrees with,
 * the sandbox must hold each published post once, and no outbox row may be left; the figures
 * are printed and the exit code says whether all of it held.
 *
 *   pnpm test:faults            (FAULTS_POSTS to change the number of posts)
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { PLATFORMS, type Platform } from '@postbus/contracts';
import { connectSandboxProfile, freePort } from '@postbus/testing';
import { startLocalSystem, type LocalSystem } from '../harness/local-system';
import { findPgBin, PrivatePostgres } from '../harness/private-postgres';
import { findRabbitBin, PrivateRabbit } from '../harness/private-rabbitmq';
import { ServiceProcess, sleep } from '../harness/service-process';
import { createPosts } from './create-posts';
import { FAULTS, type FaultContext } from './faults';
import { startMediaHost, type MediaHost } from './media-host';
import { dueRanks, PLAN, planPosts, type PlannedPost } from './post-plan';
import { report } from './report';
import { allTerminal, outboxRows, statusCounts, verifyOutcome } from './verify-outcome';

const POSTS = Number(process.env.FAULTS_POSTS ?? 2000);
/** The posts fall due evenly over this window, from the first due time on. */
const WINDOW_MS = Number(process.env.FAULTS_WINDOW_MS ?? 70_000);
/** How long after the last fault every post may take to reach its end. */
const SETTLE_MS = 150_000;
const started = Date.now();
const log = (message: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${message}`);

/** Timings shortened so that retries, takeovers and checks happen within the run. */
const SYSTEM_ENV: Record<string, string> = {
  LOG_LEVEL: process.env.FAULTS_LOG_LEVEL ?? 'error',
  RATE_LIMIT_PER_MINUTE: '0',
  SCHEDULER_TICK_MS: '250',
  // the safety net under lost messages, shortened like the rest
  POSTS_REDISPATCH_AFTER_MS: '20000',
  PLATFORM_POLL_INTERVAL_MS: '100',
  PLATFORM_POLL_MAX_INTERVAL_MS: '1000',
  PLATFORM_REQUEST_TIMEOUT_MS: '3000',
  PUBLISHER_BACKOFF_BASE_MS: '500',
  PUBLISHER_BACKOFF_MAX_MS: '5000',
  PUBLISHER_RETRY_DELAYS_MS: '500,1000,2000,4000,8000,15000',
  PUBLISHER_WORKER_HEARTBEAT_MS: '1000',
  // the media host of the run listens on 127.0.0.1
  PUBLISHER_ALLOW_LOOPBACK_MEDIA: 'true',
};

function preflight(): string[] {
  const missing: string[] = [];
  if (!findPgBin()) missing.push('PostgreSQL 15+ server binaries (initdb, pg_ctl) in /usr/lib/postgresql/<version>/bin — Debian: apt-get install postgresql-15');
  if (!findRabbitBin()) missing.push('RabbitMQ 3.10+ (rabbitmq-server, rabbitmqctl) — Debian: apt-get install rabbitmq-server');
  return missing;
}

async function createDatabase(adminUrl: string): Promise<string> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query('CREATE DATABASE postbus_faults');
  await admin.end();
  return adminUrl.replace(/\/postgres$/, '/postbus_faults');
}

/** One account per platform, with its profiles: the posts of one account never wait on another's. */
async function seedAccounts(system: LocalSystem, run: string): Promise<Map<Platform, { apiKey: string; profileIds: string[] }>> {
  const accounts = new Map<Platform, { apiKey: string; profileIds: string[] }>();
  for (const { platform, profiles: count } of PLAN) {
    const account = await system.seedAccount({ platforms: [], plan: 'pro' });
    const profileIds: string[] = [];
    for (let i = 0; i < count; i++) profileIds.push((await connectSandboxProfile(system.bus.rpc, system.sandboxUrl, account.accountId, platform, `${platform}_${run}_${i}`)).id);
    accounts.set(platform, { apiKey: account.apiKey, profileIds });
  }
  return accounts;
}

/** Strikes each fault at its time after the first post is due, noting how many posts were still to publish. */
async function injectFaults(ctx: FaultContext, databaseUrl: string, firstDue: number): Promise<{ faults: string[]; unexercised: string[] }> {
  const faults: string[] = [];
  const unexercised: string[] = [];
  for (const fault of FAULTS) {
    const wait = firstDue + fault.atMs - Date.now();
    if (wait > 0) await sleep(wait);
    const counts = await statusCounts(databaseUrl);
    const pending = counts ? POSTS - (counts.posted ?? 0) - (counts.failed ?? 0) : undefined;
    log(`fault: ${fault.name}${pending === undefined ? '' : ` (${pending} posts still to publish)`}`);
    await fault.inject(ctx);
    faults.push(pending === undefined ? fault.name : `${fault.name} [${pending} pending]`);
    if (pending === 0) unexercised.push(fault.name);
  }
  return { faults, unexercised };
}

/** Waits for every post to end and every outbox to empty, each within its time. */
async function settle(databaseUrl: string): Promise<void> {
  const deadline = Date.now() + SETTLE_MS;
  while (!allTerminal(await statusCounts(databaseUrl), POSTS) && Date.now() < deadline) await sleep(1000);
  log('every post has ended (or the time is up); waiting for the outboxes to empty');
  const outboxDeadline = Date.now() + 30_000;
  while (Object.values(await outboxRows(databaseUrl)).some((n) => n > 0) && Date.now() < outboxDeadline) await sleep(500);
}

async function main(): Promise<number> {
  const missing = preflight();
  if (missing.length) {
    console.error(`test:faults needs a PostgreSQL cluster and a RabbitMQ node of its own (it restarts them), and could not find:\n${missing.map((m) => `  - ${m}`).join('\n')}`);
    return 1;
  }
  const run = randomBytes(3).toString('hex');
  let pg: PrivatePostgres | undefined;
  let rabbit: PrivateRabbit | undefined;
  let media: MediaHost | undefined;
  let system: LocalSystem | undefined;
  const cleanup = async () => {
    await system?.stop().catch(() => undefined);
    await media?.close().catch(() => undefined);
    await rabbit?.destroy().catch(() => undefined);
    await pg?.destroy().catch(() => undefined);
  };
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
  process.once('SIGTERM', () => void cleanup().finally(() => process.exit(143)));
  // Whatever happens to this process, nothing it started outlives it.
  process.once('exit', () => {
    ServiceProcess.killAllNow();
    rabbit?.killNow();
    pg?.killNow();
  });
  const crashes: string[] = [];
  try {
    pg = await PrivatePostgres.create(await freePort());
    await pg.start();
    rabbit = PrivateRabbit.create(await freePort(), await freePort());
    await rabbit.start();
    const databaseUrl = await createDatabase(pg.url);
    log(`private PostgreSQL on port ${pg.port} and RabbitMQ node ${rabbit.node} on port ${rabbit.port} are up`);
    media = await startMediaHost();
    system = await startLocalSystem({
      databaseUrl,
      amqpUrl: rabbit.url,
      importBrokerDefinitions: (definitions) => rabbit!.importDefinitions(definitions),
      namespace: 'postbus',
      env: SYSTEM_ENV,
      // 45 TikTok profiles post here: more than an unaudited client's 5 users a day, so the sandbox plays an audited one.
      serviceEnv: { sandbox: { SANDBOX_PROCESSING_DELAY_MS: '200', LOG_LEVEL: 'error', SANDBOX_TIKTOK_AUDITED: 'true' } },
      publishers: 2,
      onCrash: (name, code, signal, tail) => {
        crashes.push(`${name} (${signal ?? code})`);
        log(`${name} exited on its own (${signal ?? code}); starting it again. Its last output:\n${tail.slice(-1500)}`);
        const p = system?.processes.find((x) => x.name === name);
        setTimeout(() => p && !p.running && p.start(), 1000);
      },
    });
    log(`${system.processes.length} processes up (${system.processes.map((p) => p.name).join(', ')})`);

    const accounts = await seedAccounts(system, run);
    await system.bus.close();
    const planned: PlannedPost[] = planPosts(POSTS, run, accounts, media.url);
    const ranks = dueRanks(planned.map((p) => p.platform));
    const firstDue = Date.now() + 5000 + POSTS * 10;
    log(`${[...accounts.values()].reduce((n, a) => n + a.profileIds.length, 0)} profiles on ${PLATFORMS.length} platforms; creating ${POSTS} posts due from ${new Date(firstDue).toISOString()} over ${WINDOW_MS / 1000} s`);
    await createPosts(system.baseUrl, planned, (i) => firstDue + Math.floor((ranks[i] / POSTS) * WINDOW_MS));
    log(`${POSTS} posts created`);

    const progress = setInterval(() => void statusCounts(databaseUrl).then((c) => log(c ? `posts: ${JSON.stringify(c)}` : 'posts: (database not answering)')), 5000);
    try {
      const { faults, unexercised } = await injectFaults({ system, pg, rabbit, log }, databaseUrl, firstDue);
      await settle(databaseUrl);
      const outcome = await verifyOutcome(databaseUrl, system.sandboxUrl, planned);
      return report({ outcome, faults, unexercised, crashes, seconds: (Date.now() - started) / 1000 }) ? 0 : 1;
    } finally {
      clearInterval(progress);
    }
  } finally {
    log('stopping');
    await cleanup();
  }
}

process.on('uncaughtException', (err) => {
  console.error(err);
  process.exit(1);
});

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
