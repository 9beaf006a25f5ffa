/**
 * Publisher drain: BENCH_POSTS (10,000) due Threads posts published straight onto the bus,
 * drained against the sandbox at 20 ms latency by 1, 2 and 4 publisher processes, each run after
 * an untimed warm-up of BENCH_WARMUP_POSTS_PER_PROCESS (250) posts per process
 * (bench/support/publisher-drain.ts). At 20 ms the drain is CPU-bound, so this measures the
 * machine; bench/drain-latency.bench.ts measures the design. Prints posts per second for each and
 * fails unless 4 processes reach 3× one.
 *
 *   npx tsx bench/publisher-drain.bench.ts
 *   BENCH_POSTS=2000 BENCH_CONCURRENCY=8 npx tsx bench/publisher-drain.bench.ts
 */
import { recordFigures } from './support/figures';
import { runDrains } from './support/publisher-drain';

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);

async function main(): Promise<void> {
  const results = await runDrains({
    posts: Number(process.env.BENCH_POSTS ?? 10_000),
    concurrency: Number(process.env.BENCH_CONCURRENCY ?? 8),
    latencyMs: LATENCY_MS,
    processes: (process.env.BENCH_PROCESSES ?? '1,2,4').split(',').map(Number),
    warmupPerProcess: Number(process.env.BENCH_WARMUP_POSTS_PER_PROCESS ?? 250),
  });
  const one = results.find((r) => r.processes === 1);
  const four = results.find((r) => r.processes === 4);
  if (one && four) {
    const ratio = four.postsPerSecond / one.postsPerSecond;
    console.log(`  4 processes / 1 process: ${ratio.toFixed(2)}× (required ≥ 3×)`);
    if (ratio < 3) process.exitCode = 1;
  }
  recordFigures([
    ...results.map((r) => ({
      section: `Publisher drain (${LATENCY_MS} ms sandbox latency)`,
      name: `${r.processes} process${r.processes === 1 ? '' : 'es'}`,
      value: Number(r.postsPerSecond.toFixed(1)),
      unit: 'posts/s',
    })),
    ...(one && four
      ? [
          {
            section: `Publisher drain (${LATENCY_MS} ms sandbox latency)`,
            name: '4 processes / 1',
            value: Number((four.postsPerSecond / one.postsPerSecond).toFixed(2)),
            unit: '×',
            target: '≥ 3×',
            met: four.postsPerSecond / one.postsPerSecond >= 3,
          },
        ]
      : []),
  ]);
  if (results.some((r) => r.failed)) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
