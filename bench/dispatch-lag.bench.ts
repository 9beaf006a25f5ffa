/**
 * Dispatch lag of the posts scheduler: how long after its scheduledTime a due post is
 * dispatched (post.due's dispatchedAt − scheduledTime) and received by a consumer of post.due,
 * with RATE due posts a second for SECONDS seconds. Target: p99 dispatch lag < 1.5 s.
 *
 *   npx tsx bench/dispatch-lag.bench.ts        (BENCH_RATE, BENCH_SECONDS, SCHEDULER_TICK_MS to vary)
 */
import { Events, newId, type PostDue } from '@postbus/contracts';
import { openBus } from '@postbus/bus';
import { createLogger, openDataSource } from '@postbus/kit';
import { createTestEnv } from '@postbus/testing';
import { start as startPosts } from '../services/posts/src/main';
import { PostRepository, type NewPost } from '../services/posts/src/posts/post.repository';
import { recordFigures } from './support/figures';

const RATE = Number(process.env.BENCH_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const TICK_MS = process.env.SCHEDULER_TICK_MS ?? '1000';
const TARGET_P99_MS = 1500;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const summary = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p90: percentile(s, 90), p99: percentile(s, 99), max: s[s.length - 1] };
};
const fmt = (v: Record<string, number>) => Object.entries(v).map(([k, n]) => `${k} ${Math.round(n)} ms`).join('  ');

async function main() {
  const env = await createTestEnv('bench_dispatch');
  const posts = await startPosts({ ...env.env, LOG_LEVEL: 'warn', SCHEDULER_TICK_MS: TICK_MS, POSTS_HTTP_PORT: '0', HOST: '127.0.0.1' });
  const ds = await openDataSource({ url: env.databaseUrl, schema: 'posts', migrations: [], poolSize: 4 });
  const bus = await openBus({ url: env.amqpUrl, namespace: env.namespace, logger: createLogger('bench', 'warn'), rpcTimeoutMs: 5000, ephemeral: true });
  const total = RATE * SECONDS;
  const dispatchLag: number[] = [];
  const receiveLag: number[] = [];
  let done!: () => void;
  const allReceived = new Promise<void>((resolve) => (done = resolve));
  const seen = new Set<string>();
  const consumer = bus.consume({
    queue: 'bench.due',
    events: [Events.postDue.name],
    prefetch: 500,
    retryDelaysMs: [],
    async handler(event) {
      const d = event.data as PostDue;
      if (seen.has(d.postId)) return;
      seen.add(d.postId);
      const due = Date.parse(d.scheduledTime);
      dispatchLag.push(Date.parse(d.dispatchedAt) - due);
      receiveLag.push(Date.now() - due);
      if (seen.size === total) done();
    },
  });
  await consumer.start();

  // Due times spread evenly from 2 s ahead: RATE posts become due every second. They are
  // written as a client would create them, in slices of 100 ms, each about LEAD_MS before it is due.
  const LEAD_MS = 1000;
  const first = Date.now() + 2000;
  const repo = new PostRepository(ds);
  const rows: NewPost[] = Array.from({ length: total }, (_, i) => ({
    id: newId('pst'),
    account_id: 'acc_bench',
    request_id: 'crq_bench',
    profile_id: 'prf_bench',
    platform: 'threads',
    status: 'scheduled',
    caption: `bench post ${i}`,
    title: null,
    media_urls: [],
    media_id: null,
    platform_meta: null,
    external_id: null,
    category: null,
    scheduled_time: new Date(first + Math.floor((i * 1000) / RATE)),
  }));
  const slices = new Map<number, NewPost[]>();
  for (const r of rows) {
    const slice = Math.floor((r.scheduled_time!.getTime() - first) / 100);
    slices.set(slice, [...(slices.get(slice) ?? []), r]);
  }
  let late = 0;
  const feeding = (async () => {
    for (const [slice, batch] of [...slices].sort(([a], [b]) => a - b)) {
      const insertAt = first + slice * 100 - LEAD_MS;
      const wait = insertAt - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      else if (wait < -LEAD_MS / 2) late++;
      await ds.transaction((m) => repo.insertMany(m, batch));
    }
  })();

  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`only ${seen.size} of ${total} post.due arrived`)), (SECONDS + 30) * 1000));
  try {
    await Promise.race([Promise.all([allReceived, feeding]), timeout]);
  } finally {
    await consumer.stop();
    await bus.close();
    await posts.lifecycle.stop();
    await ds.destroy();
    await env.drop();
  }

  const d = summary(dispatchLag);
  console.log(`dispatch lag at ${RATE} due posts/s for ${SECONDS} s (${total} posts, created ~${LEAD_MS} ms ahead, SCHEDULER_TICK_MS=${TICK_MS})`);
  if (late) console.log(`  (${late} slices were written late: the machine is busy)`);
  console.log(`  dispatched − scheduledTime : ${fmt(d)}`);
  console.log(`  received   − scheduledTime : ${fmt(summary(receiveLag))}`);
  const ok = d.p99 < TARGET_P99_MS;
  console.log(`  p99 dispatch lag ${Math.round(d.p99)} ms ${ok ? '<' : '≥'} ${TARGET_P99_MS} ms target: ${ok ? 'met' : 'MISSED'}`);
  recordFigures([
    { section: `Dispatch lag (${RATE} due posts/s)`, name: 'p50', value: Math.round(d.p50), unit: 'ms' },
    { section: `Dispatch lag (${RATE} due posts/s)`, name: 'p99', value: Math.round(d.p99), unit: 'ms', target: `≤ ${TARGET_P99_MS} ms`, met: ok },
  ]);
  process.exit(ok ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
