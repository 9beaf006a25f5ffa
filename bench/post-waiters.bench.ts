/**
 * The long poll at scale: N callers (1,000) each wait on a post of their own with
 * GET /api/v1/posts/{id}?waitFor=final&timeout=25, against the whole system run as separate
 * processes (as `npm start` runs it). While they wait, the gateway's and posts' resident set and
 * CPU are sampled; then the posts are marked dispatched and a post.published is announced for
 * each (BENCH_EVENT_RATE a second), as a publisher would. Measured:
 *
 *   requests per post         HTTP requests each caller made until it had the final post (target ≤ 2);
 *                             beside it, the reads the gateway asked posts for per post
 *   result event → answer     from announcing the post.published to the caller holding the posted
 *                             post, p50 / p99 (target p99 ≤ 100 ms)
 *   yardstick                 the same events delivered to a bare consumer of post.published in
 *                             the same run: announcing → received, p50 / p99
 *
 * With BENCH_OUTCOME=cancelled the posts are cancelled instead (DELETE /api/v1/posts/{id}, at the
 * same rate): measured from the DELETE to the waiting caller holding the cancelled post, with the
 * post.withdrawn it announces delivered to the bare consumer as the yardstick.
 *
 *   npx tsx bench/post-waiters.bench.ts     (BENCH_WAITERS, BENCH_EVENT_RATE, BENCH_WAIT_SECONDS, BENCH_OUTCOME to vary)
 */
import { Client } from 'pg';
import { Events, type PostPublished } from '@postbus/contracts';
import { envelope } from '@postbus/bus';
import { createTestEnv, metricSample } from '@postbus/testing';
import { startLocalSystem, type LocalSystem } from '../tests/harness/local-system';
import { sleep, type ServiceProcess } from '../tests/harness/service-process';
import { recordFigures, type Figure } from './support/figures';

const WAITERS = Number(process.env.BENCH_WAITERS ?? 1000);
/** post.published announced a second once everyone waits. */
const EVENT_RATE = Number(process.env.BENCH_EVENT_RATE ?? 500);
/** posted: post.published announced as a publisher would; cancelled: each post cancelled through the API. */
const OUTCOME = process.env.BENCH_OUTCOME === 'cancelled' ? 'cancelled' : 'posted';
const EVENT = OUTCOME === 'posted' ? Events.postPublished : Events.postWithdrawn;
const CHANGE = OUTCOME === 'posted' ? 'post.published' : 'DELETE';
/** How long the callers are left waiting while the processes are sampled. */
const WAIT_SECONDS = Number(process.env.BENCH_WAIT_SECONDS ?? 10);
const TIMEOUT_SECONDS = 25;
const TARGET_REQUESTS_PER_POST = 2;
const TARGET_P99_MS = 100;
const SECTION = `Long poll: ${WAITERS} callers waiting, one post each, until ${OUTCOME}`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const p50p99 = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99), max: s[s.length - 1] };
};

const metricsText = async (p: ServiceProcess) => (await fetch(`${p.spec.metricsUrl}/metrics`)).text();
const postsReads = async (posts: ServiceProcess) =>
  metricSample(await metricsText(posts), 'postbus_rpc_server_duration_seconds_count', {
    rpc: 'posts.get',
    outcome: 'ok',
  }) ?? 0;

/** Each process's resident set (MB) now and its CPU (% of one core) over `seconds`. */
async function sampleProcesses(
  processes: ServiceProcess[],
  seconds: number,
): Promise<Map<string, { rssMb: number; cpuPct: number }>> {
  const before = new Map(processes.map((p) => [p.name, p.cpuSeconds()]));
  const peaks = new Map<string, number>();
  const started = Date.now();
  while (Date.now() - started < seconds * 1000) {
    for (const p of processes) peaks.set(p.name, Math.max(peaks.get(p.name) ?? 0, p.memoryKb().rss / 1024));
    await sleep(250);
  }
  const elapsed = (Date.now() - started) / 1000;
  return new Map(
    processes.map((p) => [
      p.name,
      { rssMb: peaks.get(p.name) ?? 0, cpuPct: ((p.cpuSeconds() - (before.get(p.name) ?? 0)) / elapsed) * 100 },
    ]),
  );
}

async function createPosts(system: LocalSystem, apiKey: string, profileId: string): Promise<string[]> {
  const ids: string[] = [];
  const body = JSON.stringify({
    platforms: ['threads'],
    caption: 'A post waited on.',
    profileIds: [profileId],
    scheduledTime: new Date(Date.now() + 2 * 3_600_000).toISOString(),
  });
  for (let i = 0; i < WAITERS; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, WAITERS - i) }, async () => {
        const r = await fetch(`${system.baseUrl}/api/v1/posts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body,
        });
        if (r.status !== 201) throw new Error(`POST /api/v1/posts answered ${r.status}: ${await r.text()}`);
        return ((await r.json()) as { postIds: string[] }).postIds[0];
      }),
    );
    ids.push(...batch);
  }
  return ids;
}

/** One caller: asks again while the answer is not final (a timeout), and tells when it holds the final post. */
async function caller(
  url: string,
  apiKey: string,
  tally: { requests: number },
): Promise<{ answeredAt: number; status: string }> {
  for (;;) {
    tally.requests++;
    const r = await fetch(url, { headers: { authorization: `Bearer ${apiKey}` } });
    const body = (await r.json()) as { status: string };
    if (r.status !== 200) throw new Error(`GET ${url} answered ${r.status}: ${JSON.stringify(body)}`);
    if (r.headers.get('postbus-final') === 'true') return { answeredAt: Date.now(), status: body.status };
  }
}

async function main(): Promise<void> {
  const env = await createTestEnv('bench_waiters');
  let system: LocalSystem | undefined;
  const db = new Client({ connectionString: env.databaseUrl });
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
      // The bench's callers all wait on one gateway process.
      serviceEnv: { gateway: { LONG_POLL_MAX_WAITERS: String(WAITERS) } },
    });
    await db.connect();
    const gateway = system.of('gateway')[0];
    const posts = system.of('posts')[0];
    const watched = [gateway, posts];
    const account = await system.seedAccount({ platforms: ['threads'], plan: 'pro' });
    const ids = await createPosts(system, account.apiKey, account.profiles[0].id);
    console.log(`${WAITERS} posts created; ${WAITERS} callers wait on them (waitFor=final&timeout=${TIMEOUT_SECONDS})`);

    // The yardstick: a bare consumer of the same events, in this process beside the callers.
    const sentAt = new Map<string, number>();
    const received = new Map<string, number>();
    const bare = system.bus.consume({
      queue: 'bench.waiters.bare',
      perProcess: true,
      events: [EVENT.name],
      retryDelaysMs: [],
      prefetch: 500,
      handler: async (event) => {
        const id = (event.data as Pick<PostPublished, 'postId'>).postId;
        if (!received.has(id)) received.set(id, Date.now());
      },
    });
    await bare.start();

    const idle = await sampleProcesses(watched, 3);
    const readsBefore = await postsReads(posts);
    const tally = { requests: 0 };
    const answers = ids.map((id) =>
      caller(
        `${system!.baseUrl}/api/v1/posts/${id}?waitFor=final&timeout=${TIMEOUT_SECONDS}`,
        account.apiKey,
        tally,
      ).then((a) => ({ id, ...a })),
    );
    const gauge = async () => metricSample(await metricsText(gateway), 'postbus_gateway_post_waiters') ?? 0;
    const waitingSince = Date.now();
    while ((await gauge()) < WAITERS) {
      if (Date.now() - waitingSince > 60_000)
        throw new Error(`only ${await gauge()} of ${WAITERS} callers are waiting after 60 s`);
      await sleep(200);
    }
    console.log(
      `  all ${WAITERS} waiting after ${((Date.now() - waitingSince) / 1000).toFixed(1)} s; sampling ${WAIT_SECONDS} s`,
    );
    const waiting = await sampleProcesses(watched, WAIT_SECONDS);
    const readsWhileWaiting = (await postsReads(posts)) - readsBefore;

    // As a publisher would: each post is dispatched, then its outcome announced (or the account cancels them).
    const { rows } =
      OUTCOME === 'posted'
        ? await db.query<{ id: string; profile_id: string; platform: string }>(
            `UPDATE posts.posts SET dispatched_at = now() WHERE account_id = $1 AND id = ANY($2::text[]) RETURNING id, profile_id, platform`,
            [account.accountId, ids],
          )
        : { rows: ids.map((id) => ({ id, profile_id: '', platform: '' })) };
    const perBatch = Math.max(1, Math.round(EVENT_RATE / 10));
    const announcing = Date.now();
    for (let i = 0; i < rows.length; i += perBatch) {
      const due = announcing + (i / perBatch) * 100;
      if (due > Date.now()) await sleep(due - Date.now());
      const batch = rows.slice(i, i + perBatch);
      const now = Date.now();
      for (const r of batch) sentAt.set(r.id, now);
      if (OUTCOME === 'cancelled') {
        await Promise.all(
          batch.map(async (r) =>
            (
              await fetch(`${system!.baseUrl}/api/v1/posts/${r.id}`, {
                method: 'DELETE',
                headers: { authorization: `Bearer ${account.apiKey}` },
              })
            ).arrayBuffer(),
          ),
        );
        continue;
      }
      await system.bus.events.publish(
        batch.map((r) =>
          envelope(Events.postPublished, {
            postId: r.id,
            accountId: account.accountId,
            profileId: r.profile_id,
            platform: r.platform,
            platformPostId: `bench_${r.id}`,
            permalink: null,
            publishedAt: new Date(now).toISOString(),
          }),
        ),
      );
    }
    const done = await Promise.race([Promise.all(answers), sleep(90_000).then(() => undefined)]);
    if (!done) throw new Error('not every caller had its answer within 90 s of the events');
    await bare.stop();
    const readsTotal = (await postsReads(posts)) - readsBefore;

    // When posts wrote each outcome (it hears the same event): no answer can come before it.
    const applied = await db.query<{ id: string; at: number }>(
      `SELECT id, (extract(epoch FROM updated_at) * 1000)::float8 AS at FROM posts.posts WHERE id = ANY($1::text[])`,
      [ids],
    );
    const appliedLag = p50p99(applied.rows.map((r) => r.at - sentAt.get(r.id)!));
    const notPosted = done.filter((a) => a.status !== OUTCOME).length;
    const latency = p50p99(done.map((a) => a.answeredAt - sentAt.get(a.id)!));
    const yardstick = p50p99(ids.filter((id) => received.has(id)).map((id) => received.get(id)! - sentAt.get(id)!));
    const requestsPerPost = tally.requests / WAITERS;
    const readsPerPost = readsTotal / WAITERS;
    const ok = { requests: requestsPerPost <= TARGET_REQUESTS_PER_POST, p99: latency.p99 <= TARGET_P99_MS };

    console.log(
      `  requests per post: ${requestsPerPost.toFixed(2)} (target ≤ ${TARGET_REQUESTS_PER_POST}); posts reads per post ${readsPerPost.toFixed(2)} (${readsWhileWaiting} while all waited)${notPosted ? `; ${notPosted} answers not ${OUTCOME}` : ''}`,
    );
    console.log('  process          idle: RSS MB  CPU %    waiting: RSS MB  CPU %');
    for (const p of watched) {
      const a = idle.get(p.name)!;
      const b = waiting.get(p.name)!;
      console.log(
        `    ${p.name.padEnd(12)} ${a.rssMb.toFixed(0).padStart(12)} ${a.cpuPct.toFixed(1).padStart(6)} ${b.rssMb.toFixed(0).padStart(17)} ${b.cpuPct.toFixed(1).padStart(6)}`,
      );
    }
    console.log(
      `  ${CHANGE} at ${EVENT_RATE}/s → answer: p50 ${latency.p50} ms  p99 ${latency.p99} ms  max ${latency.max} ms (target p99 ≤ ${TARGET_P99_MS} ms): ${ok.p99 ? 'met' : 'MISSED'}`,
    );
    console.log(
      `  yardstick, the same events to a bare consumer: p50 ${yardstick.p50} ms  p99 ${yardstick.p99} ms  (${received.size} received)`,
    );
    console.log(
      `  ${CHANGE} → posts wrote the outcome: p50 ${Math.round(appliedLag.p50)} ms  p99 ${Math.round(appliedLag.p99)} ms`,
    );
    figures.push(
      {
        section: SECTION,
        name: 'requests per post',
        value: Number(requestsPerPost.toFixed(2)),
        target: `≤ ${TARGET_REQUESTS_PER_POST}`,
        met: ok.requests,
      },
      { section: SECTION, name: 'posts reads per post (gateway → posts)', value: Number(readsPerPost.toFixed(2)) },
      ...watched.map((p) => ({
        section: SECTION,
        name: `${p.name} RSS idle → waiting`,
        value: `${idle.get(p.name)!.rssMb.toFixed(0)} → ${waiting.get(p.name)!.rssMb.toFixed(0)}`,
        unit: 'MB',
      })),
      ...watched.map((p) => ({
        section: SECTION,
        name: `${p.name} CPU while waiting`,
        value: Number(waiting.get(p.name)!.cpuPct.toFixed(1)),
        unit: '% of a core',
      })),
      { section: SECTION, name: `${CHANGE} (${EVENT_RATE}/s) → answer p50`, value: latency.p50, unit: 'ms' },
      {
        section: SECTION,
        name: `${CHANGE} (${EVENT_RATE}/s) → answer p99`,
        value: latency.p99,
        unit: 'ms',
        target: `≤ ${TARGET_P99_MS} ms`,
        met: ok.p99,
      },
      {
        section: SECTION,
        name: `bare consumer of ${EVENT.name} p50 / p99`,
        value: `${yardstick.p50} / ${yardstick.p99}`,
        unit: 'ms',
      },
      {
        section: SECTION,
        name: 'posts wrote the outcome p50 / p99',
        value: `${Math.round(appliedLag.p50)} / ${Math.round(appliedLag.p99)}`,
        unit: 'ms',
      },
    );
    process.exitCode = ok.requests && ok.p99 && !notPosted ? 0 : 1;
  } finally {
    await db.end().catch(() => undefined);
    await system?.stop();
    await env.drop().catch(() => undefined);
  }
  recordFigures(figures);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
