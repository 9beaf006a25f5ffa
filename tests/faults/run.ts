/**
 * `pnpm test:faults`: 2,000 posts scheduled across the platforms, published by the whole
 * system (every service its own process, two publishers) against a PostgreSQL cluster and a
 * RabbitMQ node of its own, while faults strike one after the other: a publisher SIGKILLed,
 * RabbitMQ restarted, PostgreSQL restarted, posts stopped for 10 s, the sandbox timing out
 * for 5 s. Some posts are queued on posting schedules whose slots are the window's whole
 * minutes, some carry a first comment or a Threads chain, a few recur daily (the extender adds
 * an occurrence while the faults strike), and some are reels from an uploaded video the platform
 * refuses as it is, with `normalize`: their renditions are made by the transcoder, which is
 * SIGKILLed while ffmpeg makes one. Afterwards every post must be in one terminal state
 * that the publisher agrees with, the sandbox must hold each published post, comment and part
 * once, queued posts must sit in their slots (none above postsPerSlot), every series must hold
 * its occurrences once each, each source must have one rendition that its posts carried to the
 * platform, and no outbox row may be left; the figures are printed and the
 * exit code says whether all of it held.
 *
 *   pnpm test:faults            (FAULTS_POSTS to change the number of posts)
 */
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import type { Platform } from '@postbus/contracts';
import { callSandbox, connectSandboxProfile, freePort } from '@postbus/testing';
import { startLocalSystem, type LocalSystem } from '../harness/local-system';
import { findPgBin, PrivatePostgres } from '../../scripts/launch/private-postgres';
import { findRabbitBin, PrivateRabbit } from '../../scripts/launch/private-rabbitmq';
import { ServiceProcess, sleep } from '../harness/service-process';
import { createPosts, type CreatedPost } from './create-posts';
import { FAULTS, type FaultContext, type FaultNote } from './faults';
import { startMediaHost, type MediaHost } from './media-host';
import { bodyWithExtras, chooseExtras, postsPerSlotFor, RECURRENCE, slotsWithin, type PostExtras } from './post-extras';
import { dueRanks, PLAN, planPosts, type PlannedPost, type RunAccount } from './post-plan';
import { makeRenditionSources, uploadSource, verifyRenditions, type RenditionSources } from './renditions';
import { report } from './report';
import { pendingFollowUps, verifyExtras, type RunSchedule } from './verify-extras';
import { allTerminal, outboxRows, statusCounts, verifyOutcome } from './verify-outcome';

const POSTS = Number(process.env.FAULTS_POSTS ?? 2000);
/** The posts fall due evenly over this window, from the first due time on. */
const WINDOW_MS = Number(process.env.FAULTS_WINDOW_MS ?? 70_000);
/** How long after the last fault every post may take to reach its end. */
const SETTLE_MS = 150_000;
const started = Date.now();
const log = (message: string) =>
  console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${message}`);

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
  // A recurring post's third daily occurrence enters the horizon when its first falls due: the extender creates it during the faults.
  SERIES_HORIZON_DAYS: '2',
  SERIES_EXTEND_EVERY_MS: '1000',
  POSTS_RENDITION_POLL_MS: '500',
  TRANSCODER_RETRY_DELAYS_MS: '1000,2000,4000,8000,15000',
};

function preflight(): string[] {
  const missing: string[] = [];
  if (!findPgBin())
    missing.push(
      'PostgreSQL 15+ server binaries (initdb, pg_ctl) in /usr/lib/postgresql/<version>/bin — Debian: apt-get install postgresql-15',
    );
  if (!findRabbitBin())
    missing.push('RabbitMQ 3.10+ (rabbitmq-server, rabbitmqctl) — Debian: apt-get install rabbitmq-server');
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
async function seedAccounts(system: LocalSystem, run: string): Promise<Map<Platform, RunAccount>> {
  const accounts = new Map<Platform, RunAccount>();
  for (const { platform, profiles: count } of PLAN) {
    const account = await system.seedAccount({ platforms: [], plan: 'pro' });
    const profileIds: string[] = [];
    const boardIds: Record<string, string> = {};
    for (let i = 0; i < count; i++) {
      const handle = `${platform}_${run}_${i}`;
      const profile = await connectSandboxProfile(
        system.bus.rpc,
        system.sandboxUrl,
        account.accountId,
        platform,
        handle,
      );
      profileIds.push(profile.id);
      // A pin goes to a board: each Pinterest profile gets one, as a real account has.
      if (platform === 'pinterest') {
        const board = await callSandbox<{ id: string }>(system.sandboxUrl, 'POST', '/pinterest/boards', {
          handle,
          name: 'Faults',
        });
        boardIds[profile.id] = board.body.id;
      }
    }
    accounts.set(platform, { apiKey: account.apiKey, profileIds, boardIds });
  }
  return accounts;
}

/** Strikes each fault at its time after the first post is due, noting how many posts were still to publish. */
async function injectFaults(
  ctx: FaultContext,
  databaseUrl: string,
  firstDue: number,
): Promise<{ faults: string[]; unexercised: string[] }> {
  const faults: string[] = [];
  const unexercised: string[] = [];
  for (const fault of FAULTS) {
    const wait = firstDue + fault.atMs - Date.now();
    if (wait > 0) await sleep(wait);
    const counts = await statusCounts(databaseUrl);
    const pending = counts ? POSTS - (counts.posted ?? 0) - (counts.failed ?? 0) : undefined;
    log(`fault: ${fault.name}${pending === undefined ? '' : ` (${pending} posts still to publish)`}`);
    const found: FaultNote = (await fault.inject(ctx)) ?? {};
    faults.push(
      `${fault.name}${pending === undefined ? '' : ` [${pending} pending]`}${found.note ? ` (${found.note})` : ''}`,
    );
    if (pending === 0 || found.missed) unexercised.push(fault.name);
  }
  return { faults, unexercised };
}

/**
 * A posting schedule on each platform with queued posts, its slots the whole minutes of the
 * window; posts beyond what 10 a slot can take stay unqueued.
 */
async function createSchedules(
  system: LocalSystem,
  accounts: Map<Platform, RunAccount>,
  planned: PlannedPost[],
  extras: PostExtras,
  from: number,
): Promise<RunSchedule[]> {
  const { instants, slots } = slotsWithin(from, from + WINDOW_MS);
  if (!instants.length) extras.queued.clear();
  const schedules: RunSchedule[] = [];
  for (const platform of new Set([...extras.queued].map((i) => planned[i].platform))) {
    const postsPerSlot = postsPerSlotFor(planned, extras, platform, instants.length);
    const { apiKey, profileIds } = accounts.get(platform)!;
    const res = await fetch(`${system.baseUrl}/api/v1/schedules`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `faults ${platform}`, timezone: 'UTC', slots, profileIds, postsPerSlot }),
    });
    if (res.status !== 201)
      throw new Error(`creating the ${platform} schedule failed: ${res.status} ${await res.text()}`);
    schedules.push({ platform, id: ((await res.json()) as { id: string }).id, postsPerSlot, instants });
  }
  return schedules;
}

/** Waits for every post to end, its first comment and thread too, and every outbox to empty, each within its time. */
async function settle(databaseUrl: string, postIds: string[]): Promise<void> {
  const deadline = Date.now() + SETTLE_MS;
  while (!allTerminal(await statusCounts(databaseUrl), POSTS) && Date.now() < deadline) await sleep(1000);
  while ((await pendingFollowUps(databaseUrl, postIds)) !== 0 && Date.now() < deadline) await sleep(1000);
  log('every post has ended (or the time is up); waiting for the outboxes to empty');
  const outboxDeadline = Date.now() + 30_000;
  while (Object.values(await outboxRows(databaseUrl)).some((n) => n > 0) && Date.now() < outboxDeadline)
    await sleep(500);
}

async function main(): Promise<number> {
  const missing = preflight();
  if (missing.length) {
    console.error(
      `test:faults needs a PostgreSQL cluster and a RabbitMQ node of its own (it restarts them), and could not find:\n${missing.map((m) => `  - ${m}`).join('\n')}`,
    );
    return 1;
  }
  const run = randomBytes(3).toString('hex');
  let pg: PrivatePostgres | undefined;
  let rabbit: PrivateRabbit | undefined;
  let media: MediaHost | undefined;
  let system: LocalSystem | undefined;
  let sources: RenditionSources | undefined;
  // The transcoder's work directory: what a killed job leaves there is counted.
  const transcoderDir = await mkdtemp(join(tmpdir(), 'postbus-faults-transcoder-'));
  const cleanup = async () => {
    await system?.stop().catch(() => undefined);
    await media?.close().catch(() => undefined);
    await sources?.remove().catch(() => undefined);
    await rm(transcoderDir, { recursive: true, force: true }).catch(() => undefined);
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
    const madeSources = makeRenditionSources();
    system = await startLocalSystem({
      databaseUrl,
      amqpUrl: rabbit.url,
      importBrokerDefinitions: (definitions) => rabbit!.importDefinitions(definitions),
      namespace: 'postbus',
      env: SYSTEM_ENV,
      // 45 TikTok profiles post here: more than an unaudited client's 5 users a day, so the sandbox plays an audited one.
      serviceEnv: {
        sandbox: { SANDBOX_PROCESSING_DELAY_MS: '200', LOG_LEVEL: 'error', SANDBOX_TIKTOK_AUDITED: 'true' },
        transcoder: { TRANSCODER_WORK_DIR: transcoderDir },
      },
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
    sources = await madeSources;
    for (const source of sources.byPlatform.values())
      await uploadSource(system.baseUrl, accounts.get(source.platform)!.apiKey, source);
    const planned: PlannedPost[] = planPosts(POSTS, run, accounts, media.url);
    const ranks = dueRanks(planned.map((p) => p.platform));
    const extras = chooseExtras(planned, (platform) => accounts.get(platform)!.profileIds.length);
    const firstDue = Date.now() + 5000 + POSTS * 10;
    const schedules = await createSchedules(system, accounts, planned, extras, firstDue);
    log(
      `${[...accounts.values()].reduce((n, a) => n + a.profileIds.length, 0)} profiles on ${accounts.size} platforms; creating ${POSTS} posts due from ${new Date(firstDue).toISOString()} over ${WINDOW_MS / 1000} s`,
    );
    log(
      `of which ${extras.queued.size} queued on ${schedules.length} schedules (slots ${schedules[0]?.instants.map((t) => new Date(t).toISOString().slice(11, 16)).join(', ') ?? 'none'} UTC), ` +
        `${extras.firstComments.size} with a first comment, ${extras.threadParts.size} with a Threads chain, ${extras.recurring.size} recurring (${RECURRENCE}), ` +
        `${extras.normalized.size} normalized reels (${extras.held.size} of them created when the transcoder is killed)`,
    );
    const scheduleOf = new Map(schedules.map((s) => [s.platform, s.id]));
    const sourceOf = (i: number) => sources!.byPlatform.get(planned[i].platform)?.mediaId;
    const dueAt = (i: number) =>
      extras.queued.has(i) ? firstDue - 1 : firstDue + Math.floor((ranks[i] / POSTS) * WINDOW_MS);
    const bodyOf = (i: number) =>
      bodyWithExtras(planned[i], i, extras, scheduleOf.get(planned[i].platform), sourceOf(i));
    // Queued posts are created first, well before their slots; the held ones when the transcoder fault strikes.
    const created: CreatedPost[] = await createPosts(
      system.baseUrl,
      planned,
      dueAt,
      bodyOf,
      planned.flatMap((_, i) => (extras.held.has(i) ? [] : [i])),
    );
    log(`${POSTS - extras.held.size} posts created`);
    const createHeldPosts = async () => {
      const late = await createPosts(system!.baseUrl, planned, dueAt, bodyOf, [...extras.held]);
      for (const i of extras.held) created[i] = late[i];
      return extras.held.size;
    };

    const progress = setInterval(
      () =>
        void statusCounts(databaseUrl).then((c) =>
          log(c ? `posts: ${JSON.stringify(c)}` : 'posts: (database not answering)'),
        ),
      5000,
    );
    try {
      const { faults, unexercised } = await injectFaults(
        { system, pg, rabbit, log, createHeldPosts },
        databaseUrl,
        firstDue,
      );
      const postIds = created.map((c) => c.id);
      await settle(databaseUrl, postIds);
      const outcome = await verifyOutcome(databaseUrl, system.sandboxUrl, planned, postIds);
      const extrasOutcome = await verifyExtras(
        databaseUrl,
        system.sandboxUrl,
        system.baseUrl,
        planned,
        created,
        extras,
        schedules,
      );
      const renditions = await verifyRenditions(databaseUrl, system.sandboxUrl, planned, created, extras, sources);
      const leftInWorkDir = readdirSync(transcoderDir).length;
      return report({
        outcome,
        extras: extrasOutcome,
        renditions,
        leftInWorkDir,
        faults,
        unexercised,
        crashes,
        seconds: (Date.now() - started) / 1000,
      })
        ? 0
        : 1;
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
