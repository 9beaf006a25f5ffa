/**
 * Publisher drain at platform latency: the case that shows whether publishers scale out. The
 * sandbox answers every request after 200 ms and each publisher runs PUBLISHER_CONCURRENCY=4, so
 * one process is bound by waiting, not by CPU; 1, 2 and 4 processes then drain
 * BENCH_LATENCY_POSTS (1,000) due Threads posts each (bench/support/publisher-drain.ts). Four
 * processes must drain ≥ 3.6× one: anything shared between them (the rate-limit slots table, the
 * attempt log, the broker) would flatten the ratio. The yardstick is the latency ceiling, the
 * rate at which the in-flight posts could go if nothing but the platform's latency held them;
 * beside it, the CPU each published post cost.
 *
 *   npx tsx bench/drain-latency.bench.ts
 *   BENCH_LATENCY_POSTS=200 npx tsx bench/drain-latency.bench.ts
 */
import { recordFigures, type Figure } from './support/figures';
import { runDrains, type DrainResult } from './support/publisher-drain';

const LATENCY_MS = 200;
const CONCURRENCY = 4;
const MIN_RATIO = 3.6;
const SECTION = `Publisher drain (${LATENCY_MS} ms sandbox latency, PUBLISHER_CONCURRENCY=${CONCURRENCY})`;

const processesName = (n: number) => `${n} process${n === 1 ? '' : 'es'}`;

/** Posts per second if each of a process's in-flight posts only waited for its sandbox requests. */
const latencyCeiling = (r: DrainResult) => (r.processes * CONCURRENCY * 1000) / (r.requestsPerPost * LATENCY_MS);

function figures(results: DrainResult[]): Figure[] {
  const one = results.find((r) => r.processes === 1);
  const four = results.find((r) => r.processes === 4);
  const rows: Figure[] = results.map((r) => ({
    section: SECTION,
    name: processesName(r.processes),
    value: `${r.postsPerSecond.toFixed(1)} posts/s (latency ceiling ${latencyCeiling(r).toFixed(1)}: ${r.requestsPerPost.toFixed(2)} requests/post)`,
  }));
  if (one && four) {
    const ratio = four.postsPerSecond / one.postsPerSecond;
    rows.push({
      section: SECTION,
      name: '4 processes / 1',
      value: Number(ratio.toFixed(2)),
      unit: '×',
      target: `≥ ${MIN_RATIO}×`,
      met: ratio >= MIN_RATIO,
    });
  }
  for (const r of results) {
    const c = r.cpu;
    rows.push({
      section: SECTION,
      name: `CPU per post, ${processesName(r.processes)}`,
      value: `publishers ${c.publishers.toFixed(2)} ms, postgres+rabbitmq ${c.infrastructure.toFixed(2)} ms, sandbox ${c.sandbox.toFixed(2)} ms`,
    });
  }
  return rows;
}

async function main(): Promise<void> {
  const results = await runDrains({
    posts: Number(process.env.BENCH_LATENCY_POSTS ?? 1_000),
    concurrency: CONCURRENCY,
    latencyMs: LATENCY_MS,
    processes: [1, 2, 4],
    // At this latency compiling the hot code costs little next to the waiting: a short warm-up does.
    warmupPerProcess: Number(process.env.BENCH_LATENCY_WARMUP_POSTS_PER_PROCESS ?? 50),
  });
  for (const r of results)
    console.log(`  ${processesName(r.processes)}: latency ceiling ${latencyCeiling(r).toFixed(1)} posts/s`);
  const rows = figures(results);
  const ratio = rows.find((f) => f.target);
  if (ratio) console.log(`  4 processes / 1 process: ${ratio.value}× (required ≥ ${MIN_RATIO}×)`);
  recordFigures(rows);
  if (results.some((r) => r.failed) || rows.some((f) => f.met === false)) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
