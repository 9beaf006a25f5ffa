/**
 * The API against the machine's own limits. The whole system runs as separate processes, as
 * `npm start` runs it; with a real key and profile, autocannon (32 connections, 30 s) drives
 *
 *   POST /api/v1/posts        → req/s, p50, p99; beside it pgbench (one post row + one outbox row
 *                               per transaction, 32 clients) and the ratio API / pgbench
 *   GET  /api/v1/posts/{id}   → req/s, p99; beside it a bare Express handler answering the same
 *                               JSON from memory, and the ratios
 *
 * then publishes a burst of posts, and samples every process's resident set idle and under all of it.
 *
 *   npx tsx bench/api.bench.ts
 *   BENCH_SECONDS=10 BENCH_PROFILE=gateway,posts npx tsx bench/api.bench.ts   (CPU profiles in bench/profiles/)
 */
import { join } from 'node:path';
import autocannon from 'autocannon';
import { connectSandboxProfile, createTestEnv, freePort } from '@postbus/testing';
import { startLocalSystem, type LocalSystem } from '../tests/harness/local-system';
import { answers, ServiceProcess, sleep } from '../tests/harness/service-process';
import { SERVICE_NODE_OPTIONS } from '../scripts/service-node-options';
import { recordFigures, type Figure } from './support/figures';
import { findPgbench, runPgbench, type PgbenchResult } from './support/pgbench';
import { RssSampler } from './support/rss-sampler';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const PROFILE = (process.env.BENCH_PROFILE ?? '').split(',').filter(Boolean);
const PROFILE_DIR = join(__dirname, 'profiles');
const RSS_LIMIT_MB = 150;
/** Posts published at the end of the load, so that publisher, connections and webhooks work too. */
const PUBLISH_BURST = Number(process.env.BENCH_PUBLISH_BURST ?? 600);

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
}

async function load(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string; seconds: number },
): Promise<Load> {
  const r = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: opts.seconds,
    method: opts.method ?? 'GET',
    headers: opts.headers,
    body: opts.body,
    timeout: 10,
  });
  return {
    rps: r['2xx'] / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    requests: r['2xx'] + r.non2xx,
  };
}

/** Runs a load and reports the CPU each process spent per request meanwhile (ms), the busiest first. */
type Measured = Load & { cpu: string };

async function measured(processes: ServiceProcess[], run: () => Promise<Load>): Promise<Measured> {
  const before = new Map(processes.map((p) => [p.name, { cpu: p.cpuSeconds(), writes: p.writeCalls() }]));
  const result = await run();
  const n = Math.max(1, result.requests);
  const perRequest = processes
    .map((p) => ({
      name: p.name,
      ms: ((p.cpuSeconds() - (before.get(p.name)?.cpu ?? 0)) * 1000) / n,
      writes: (p.writeCalls() - (before.get(p.name)?.writes ?? 0)) / n,
    }))
    .filter((p) => p.ms >= 0.05)
    .sort((a, b) => b.ms - a.ms);
  return {
    ...result,
    cpu: perRequest.map((p) => `${p.name} ${p.ms.toFixed(2)} (${p.writes.toFixed(1)} writes)`).join(', '),
  };
}

const ms = (v: number) => `${v.toFixed(1)} ms`;
const line = (label: string, l: Load) =>
  `  ${label.padEnd(34)} ${l.rps.toFixed(0).padStart(6)} req/s   p50 ${ms(l.p50).padStart(9)}   p99 ${ms(l.p99).padStart(9)}${l.non2xx || l.errors ? `   (${l.non2xx} non-2xx, ${l.errors} errors)` : ''}`;

/** The system under POST then GET load, each process's resident set sampled throughout. */
async function loadSystem(system: LocalSystem): Promise<{
  post: Measured;
  get: Measured;
  getFinal: Measured;
  postId: string;
  postJson: string;
  idle: Map<string, number>;
  peaks: Map<string, number>;
}> {
  const account = await system.seedAccount({ platforms: ['threads'], plan: 'pro' });
  const auth = { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' };
  const rss = new RssSampler(() => system.processes);
  await sleep(3000);
  const idle = rss.now();

  // A post created far ahead: the load measures the API, not the publishing of thousands of posts.
  const createBody = JSON.stringify({
    platforms: ['threads'],
    caption: 'A benchmark post with a caption of ordinary length.',
    profileIds: [account.profiles[0].id],
    scheduledTime: new Date(Date.now() + 30 * 86_400_000).toISOString(),
  });
  const postsUrl = `${system.baseUrl}/api/v1/posts`;
  const first = await fetch(postsUrl, { method: 'POST', headers: auth, body: createBody });
  if (first.status !== 201) throw new Error(`POST /api/v1/posts answered ${first.status}: ${await first.text()}`);
  const postId = ((await first.json()) as { postIds: string[] }).postIds[0];
  const getUrl = `${system.baseUrl}/api/v1/posts/${postId}`;
  const postJson = await (await fetch(getUrl, { headers: auth })).text();

  console.log(`API under load: ${CONNECTIONS} connections, ${SECONDS} s each (after ${WARMUP_SECONDS} s of warm-up)`);
  rss.start();
  await load(postsUrl, { method: 'POST', headers: auth, body: createBody, seconds: WARMUP_SECONDS });
  const post = await measured(system.processes, () =>
    load(postsUrl, { method: 'POST', headers: auth, body: createBody, seconds: SECONDS }),
  );
  console.log(line('POST /api/v1/posts', post));
  console.log(`    CPU ms (and write system calls) per request: ${post.cpu}`);
  await load(getUrl, { headers: auth, seconds: WARMUP_SECONDS });
  const get = await measured(system.processes, () => load(getUrl, { headers: auth, seconds: SECONDS }));
  console.log(line('GET /api/v1/posts/{id}', get));
  console.log(`    CPU ms (and write system calls) per request: ${get.cpu}`);
  const getFinal = await loadFinalPost(system, account.profiles[0].id, auth);
  if (post.non2xx || get.non2xx || getFinal.non2xx)
    console.log(
      `  (non-2xx answers: POST ${post.non2xx}, GET ${get.non2xx}, GET final ${getFinal.non2xx}: the figures count 2xx only)`,
    );
  await publishBurst(system, account.accountId, account.apiKey);
  return { post, get, getFinal, postId, postJson, idle, peaks: rss.stop() };
}

/** GET of a post in a final state (published now, read once it is posted): an answer that no longer changes. */
async function loadFinalPost(system: LocalSystem, profileId: string, auth: Record<string, string>): Promise<Measured> {
  const created = await fetch(`${system.baseUrl}/api/v1/publish`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      platforms: ['threads'],
      caption: 'A benchmark post published now.',
      profileIds: [profileId],
    }),
  });
  if (created.status !== 201)
    throw new Error(`POST /api/v1/publish answered ${created.status}: ${await created.text()}`);
  const finalId = ((await created.json()) as { postIds: string[] }).postIds[0];
  const url = `${system.baseUrl}/api/v1/posts/${finalId}`;
  const waited = (await (await fetch(`${url}?waitFor=final&timeout=25`, { headers: auth })).json()) as {
    status: string;
  };
  if (waited.status !== 'posted') throw new Error(`the published post ended ${waited.status}`);
  await load(url, { headers: auth, seconds: WARMUP_SECONDS });
  const getFinal = await measured(system.processes, () => load(url, { headers: auth, seconds: SECONDS }));
  console.log(line('GET /api/v1/posts/{id}, posted', getFinal));
  console.log(`    CPU ms (and write system calls) per request: ${getFinal.cpu}`);
  return getFinal;
}

/** Publishing load for the resident sets: PUBLISH_BURST posts due at once over a few Threads profiles, published to the sandbox. */
async function publishBurst(system: LocalSystem, accountId: string, apiKey: string): Promise<void> {
  const profiles = await Promise.all(
    Array.from({ length: 4 }, (_, i) =>
      connectSandboxProfile(
        system.bus.rpc,
        system.sandboxUrl,
        accountId,
        'threads',
        `burst_${i}_${accountId.slice(-6).toLowerCase()}`,
      ),
    ),
  );
  const started = Date.now();
  for (let i = 0; i < PUBLISH_BURST; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, PUBLISH_BURST - i) }, (_, k) =>
        fetch(`${system.baseUrl}/api/v1/publish`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            platforms: ['threads'],
            caption: `Burst post ${i + k}`,
            profileIds: [profiles[(i + k) % profiles.length].id],
          }),
        }).then((r) => r.arrayBuffer()),
      ),
    );
  }
  const published = async () =>
    ((await (await fetch(`${system.sandboxUrl}/__sandbox/published?platform=threads`)).json()) as unknown[]).length;
  while ((await published()) < PUBLISH_BURST && Date.now() - started < 120_000) await sleep(500);
  console.log(
    `  publishing ${PUBLISH_BURST} posts due at once: ${await published()} on the sandbox after ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

/** A bare Express handler answering the same JSON from memory, in a process of its own, under the same load. */
async function bareExpress(postId: string, postJson: string): Promise<Measured> {
  const port = await freePort();
  const bare = new ServiceProcess({
    name: 'bare-express',
    entry: 'bench/support/bare-express.ts',
    env: {
      BARE_PORT: String(port),
      BARE_BODY: postJson,
      NODE_OPTIONS: process.env.NODE_OPTIONS ?? SERVICE_NODE_OPTIONS,
    },
    ready: answers(`http://127.0.0.1:${port}/api/v1/posts/x`),
  });
  bare.start();
  try {
    await bare.waitReady();
    const url = `http://127.0.0.1:${port}/api/v1/posts/${postId}`;
    await load(url, { seconds: WARMUP_SECONDS });
    const result = await measured([bare], () => load(url, { seconds: SECONDS }));
    console.log(line('bare Express, same JSON', result));
    console.log(`    CPU ms (and write system calls) per request: ${result.cpu}`);
    return result;
  } finally {
    await bare.stop();
  }
}

function apiFigures(post: Load, get: Load, getFinal: Load, bare: Load, pg: PgbenchResult): Figure[] {
  const postRatio = post.rps / pg.tps;
  const getRatio = get.rps / bare.rps;
  const p99Factor = get.p99 / bare.p99;
  const finalRatio = getFinal.rps / bare.rps;
  const finalP99Factor = getFinal.p99 / bare.p99;
  console.log(
    `  POST / pgbench = ${postRatio.toFixed(2)} (target ≥ 0.25) with p99 ${ms(post.p99)} (target ≤ 50 ms): ${postRatio >= 0.25 && post.p99 <= 50 ? 'met' : 'MISSED'}`,
  );
  console.log(
    `  GET / bare = ${getRatio.toFixed(2)} (target ≥ 0.3), p99 ${p99Factor.toFixed(1)}× bare's (target ≤ 3×): ${getRatio >= 0.3 && p99Factor <= 3 ? 'met' : 'MISSED'}`,
  );
  console.log(
    `  GET posted / bare = ${finalRatio.toFixed(2)} (target ≥ 0.5), p99 ${finalP99Factor.toFixed(1)}× bare's (target ≤ 3×): ${finalRatio >= 0.5 && finalP99Factor <= 3 ? 'met' : 'MISSED'}`,
  );
  return [
    { section: 'POST /api/v1/posts', name: 'sustained', value: Math.round(post.rps), unit: 'req/s' },
    { section: 'POST /api/v1/posts', name: 'p50', value: post.p50, unit: 'ms' },
    { section: 'POST /api/v1/posts', name: 'p99', value: post.p99, unit: 'ms', target: '≤ 50 ms', met: post.p99 <= 50 },
    {
      section: 'POST /api/v1/posts',
      name: 'pgbench (post + outbox row per tx)',
      value: Math.round(pg.tps),
      unit: 'tx/s',
    },
    {
      section: 'POST /api/v1/posts',
      name: 'API / pgbench',
      value: Number(postRatio.toFixed(3)),
      target: '≥ 0.25',
      met: postRatio >= 0.25,
    },
    { section: 'GET /api/v1/posts/{id}', name: 'sustained', value: Math.round(get.rps), unit: 'req/s' },
    { section: 'GET /api/v1/posts/{id}', name: 'p99', value: get.p99, unit: 'ms' },
    {
      section: 'GET /api/v1/posts/{id}',
      name: 'bare Express',
      value: `${Math.round(bare.rps)} req/s, p99 ${bare.p99} ms`,
    },
    {
      section: 'GET /api/v1/posts/{id}',
      name: 'API / bare',
      value: Number(getRatio.toFixed(3)),
      target: '≥ 0.3',
      met: getRatio >= 0.3,
    },
    {
      section: 'GET /api/v1/posts/{id}',
      name: 'p99 / bare p99',
      value: Number(p99Factor.toFixed(1)),
      unit: '×',
      target: '≤ 3×',
      met: p99Factor <= 3,
    },
    { section: 'GET /api/v1/posts/{id}', name: 'posted: sustained', value: Math.round(getFinal.rps), unit: 'req/s' },
    {
      section: 'GET /api/v1/posts/{id}',
      name: 'posted: API / bare',
      value: Number(finalRatio.toFixed(3)),
      target: '≥ 0.5',
      met: finalRatio >= 0.5,
    },
    {
      section: 'GET /api/v1/posts/{id}',
      name: 'posted: p99 / bare p99',
      value: Number(finalP99Factor.toFixed(1)),
      unit: '×',
      target: '≤ 3×',
      met: finalP99Factor <= 3,
    },
  ];
}

function rssFigures(processes: ServiceProcess[], idle: Map<string, number>, peaks: Map<string, number>): Figure[] {
  console.log('  resident set (MB)            idle   peak under load');
  return processes.map((p) => {
    const peak = peaks.get(p.name) ?? 0;
    console.log(
      `    ${p.name.padEnd(26)} ${(idle.get(p.name) ?? 0).toFixed(0).padStart(6)}   ${peak.toFixed(0).padStart(6)}${peak > RSS_LIMIT_MB ? '   OVER 150 MB' : ''}`,
    );
    return {
      section: 'Peak RSS (MB), idle → under the API and publishing load',
      name: p.name,
      value: `${(idle.get(p.name) ?? 0).toFixed(0)} → ${peak.toFixed(0)}`,
      target: `≤ ${RSS_LIMIT_MB}`,
      met: peak <= RSS_LIMIT_MB,
    };
  });
}

async function main(): Promise<void> {
  const pgbench = findPgbench();
  if (!pgbench)
    throw new Error(
      'pgbench is needed: install postgresql-client (Debian: /usr/lib/postgresql/15/bin/pgbench) or put it on PATH',
    );
  const env = await createTestEnv('bench_api');
  let system: LocalSystem | undefined;
  const figures: Figure[] = [];
  try {
    system = await startLocalSystem({
      databaseUrl: env.databaseUrl,
      amqpUrl: env.amqpUrl,
      namespace: env.namespace,
      env: {
        BUS_EPHEMERAL: 'true',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MINUTE: '100000000',
        QUOTA_PRO_POSTS: '100000000',
      },
      // One directory per service: node writes a profile per thread (the main one is the largest).
      nodeArgs: Object.fromEntries(
        PROFILE.map((name) => [name, ['--cpu-prof', `--cpu-prof-dir=${join(PROFILE_DIR, name)}`]]),
      ),
    });
    const { post, get, getFinal, postId, postJson, idle, peaks } = await loadSystem(system);
    // The yardsticks, in the same run, with the system idle beside them.
    const bare = await bareExpress(postId, postJson);
    const pg = await runPgbench(env.databaseUrl, { clients: CONNECTIONS, seconds: SECONDS, binary: pgbench });
    console.log(
      `  ${'pgbench: post + outbox row per tx'.padEnd(34)} ${pg.tps.toFixed(0).padStart(6)} tx/s    mean ${ms(pg.latencyMs).padStart(9)}`,
    );
    figures.push(...apiFigures(post, get, getFinal, bare, pg), ...rssFigures(system.processes, idle, peaks));
  } finally {
    await system?.stop();
    await env.drop().catch(() => undefined);
  }
  recordFigures(figures);
  process.exitCode = figures.some((f) => f.met === false) ? 1 : 0;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
