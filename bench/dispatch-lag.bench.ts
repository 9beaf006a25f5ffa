/**
 * Dispatch lag of the posts scheduler: how long after its scheduledTime a due post is
 * dispatched (post.due's dispatchedAt − scheduledTime) and received by a consumer of post.due,
 * with RATE due posts a second for SECONDS seconds. Target: p99 dispatch lag < 1.5 s.
 *
 *   npx tsx bench/dispatch-lag.bench.ts        (BENCH_RATE, BENCH_SECONDS, SCHEDULER_TICK_MS to vary)
 */
import { openBus } from '@postbus/bus';
import { createLogger, openDataSource } from '@postbus/kit';
import { createTestEnv } from '@postbus/testing';
import { start as startPosts } from '../services/posts/src/main';
import { formatLag as fmt, LEAD_MS, lagSummary as summary, measureDispatchLag } from './support/dispatch-lag';
import { recordFigures } from './support/figures';

const RATE = Number(process.env.BENCH_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const TICK_MS = process.env.SCHEDULER_TICK_MS ?? '1000';
const TARGET_P99_MS = 1500;

async function main() {
  const env = await createTestEnv('bench_dispatch');
  const posts = await startPosts({
    ...env.env,
    LOG_LEVEL: 'warn',
    SCHEDULER_TICK_MS: TICK_MS,
    POSTS_HTTP_PORT: '0',
    HOST: '127.0.0.1',
  });
  const ds = await openDataSource({ url: env.databaseUrl, schema: 'posts', migrations: [], poolSize: 4 });
  const bus = await openBus({
    url: env.amqpUrl,
    namespace: env.namespace,
    logger: createLogger('bench', 'warn'),
    rpcTimeoutMs: 5000,
    ephemeral: true,
  });
  const total = RATE * SECONDS;
  let measured: Awaited<ReturnType<typeof measureDispatchLag>>;
  try {
    measured = await measureDispatchLag(ds, bus, { rate: RATE, seconds: SECONDS });
  } finally {
    await bus.close();
    await posts.lifecycle.stop();
    await ds.destroy();
    await env.drop();
  }
  const { dispatchLag, receiveLag, late } = measured;

  const d = summary(dispatchLag);
  console.log(
    `dispatch lag at ${RATE} due posts/s for ${SECONDS} s (${total} posts, created ~${LEAD_MS} ms ahead, SCHEDULER_TICK_MS=${TICK_MS})`,
  );
  if (late) console.log(`  (${late} slices were written late: the machine is busy)`);
  console.log(`  dispatched − scheduledTime : ${fmt(d)}`);
  console.log(`  received   − scheduledTime : ${fmt(summary(receiveLag))}`);
  const ok = d.p99 < TARGET_P99_MS;
  console.log(
    `  p99 dispatch lag ${Math.round(d.p99)} ms ${ok ? '<' : '≥'} ${TARGET_P99_MS} ms target: ${ok ? 'met' : 'MISSED'}`,
  );
  recordFigures([
    { section: `Dispatch lag (${RATE} due posts/s)`, name: 'p50', value: Math.round(d.p50), unit: 'ms' },
    {
      section: `Dispatch lag (${RATE} due posts/s)`,
      name: 'p99',
      value: Math.round(d.p99),
      unit: 'ms',
      target: `≤ ${TARGET_P99_MS} ms`,
      met: ok,
    },
  ]);
  process.exit(ok ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
