/**
 * The scheduler with a large posts table. Seeds (INSERT … SELECT generate_series) 100 k posts
 * already dispatched and SCHEDULER_BATCH posts due now, then grows the future posts to 10 k,
 * 100 k and 1 M; at each size runs the scheduler's own claim statement (due-post.repository's
 * claimDue) under EXPLAIN (ANALYZE, BUFFERS), rolled back, and prints how the plan reaches the
 * posts table (target: index scans only) and how long finding the due rows takes (target: flat,
 * the largest size within 1.2× of the smallest) beside the whole statement's time (it also writes
 * the claimed rows, whatever the table's size). Then, with the table at its largest, the dispatch lag at
 * BENCH_RATE due posts a second for BENCH_SECONDS (bench/support/dispatch-lag.ts).
 *
 *   npx tsx bench/scheduler-scale.bench.ts
 *   BENCH_SCHEDULER_SIZES=10000,100000 npx tsx bench/scheduler-scale.bench.ts   (skips the 1 M seeding)
 */
import { Client } from 'pg';
import { openBus } from '@postbus/bus';
import { createLogger, openDataSource } from '@postbus/kit';
import { createTestEnv } from '@postbus/testing';
import { start as startPosts } from '../services/posts/src/main';
import { claimDue } from '../services/posts/src/scheduler/due-post.repository';
import { formatLag, lagSummary, measureDispatchLag } from './support/dispatch-lag';
import { recordFigures, type Figure } from './support/figures';

const SIZES = (process.env.BENCH_SCHEDULER_SIZES ?? '10000,100000,1000000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0)
  .sort((a, b) => a - b);
const DISPATCHED = Number(process.env.BENCH_SCHEDULER_DISPATCHED ?? 100_000);
/** As the posts service claims by default (SCHEDULER_BATCH). */
const BATCH = 500;
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Runs of the claim per size; the fastest stands for the size (the least disturbed by the rest of the machine), the median beside it. */
const RUNS = 15;
const TARGET_GROWTH = 1.2;
const TARGET_LAG_P99_MS = 1500;

interface PlanNode {
  'Node Type': string;
  'Subplan Name'?: string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Total Time'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

/** The nodes that read the posts table, anywhere in the plan. */
function postsScans(node: PlanNode, found: PlanNode[] = []): PlanNode[] {
  if (node['Relation Name'] === 'posts' && /Scan/.test(node['Node Type'])) found.push(node);
  for (const child of node.Plans ?? []) postsScans(child, found);
  return found;
}

/** The subtree that picks the due rows (the claim's `due` CTE): what the table's size could slow down. */
function findDue(node: PlanNode): PlanNode | undefined {
  if (node['Subplan Name'] === 'CTE due') return node;
  for (const child of node.Plans ?? []) {
    const found = findDue(child);
    if (found) return found;
  }
  return undefined;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fastest = (values: number[]) => Math.min(...values);

/** The claim statement as the scheduler runs it, explained and rolled back: nothing is dispatched. */
async function explainClaim(
  db: Client,
): Promise<{ ms: number; dueMs: number; dueMedianMs: number; scans: string[]; buffers: number }> {
  const times: number[] = [];
  const dueTimes: number[] = [];
  let scans: string[] = [];
  let buffers = 0;
  for (let i = 0; i < RUNS; i++) {
    await db.query('BEGIN');
    try {
      let plan: { Plan: PlanNode; 'Execution Time': number } | undefined;
      await claimDue(
        {
          query: async (sql: string, params?: readonly unknown[]) => {
            const { rows } = await db.query<{ 'QUERY PLAN': (typeof plan)[] }>(
              `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`,
              params as unknown[],
            );
            plan = rows[0]['QUERY PLAN'][0];
            return [];
          },
        },
        BATCH,
      );
      times.push(plan!['Execution Time']);
      const due = findDue(plan!.Plan);
      const dueScans = due ? postsScans(due) : [];
      dueTimes.push(due ? Math.max(0, ...dueScans.map((n) => n['Actual Total Time'] ?? 0)) : plan!['Execution Time']);
      buffers = dueScans.reduce(
        (n, scan) => n + (scan['Shared Hit Blocks'] ?? 0) + (scan['Shared Read Blocks'] ?? 0),
        0,
      );
      scans = postsScans(plan!.Plan).map((n) => `${n['Node Type']}${n['Index Name'] ? ` (${n['Index Name']})` : ''}`);
    } finally {
      await db.query('ROLLBACK');
    }
  }
  return {
    ms: median(times),
    dueMs: fastest(dueTimes),
    dueMedianMs: median(dueTimes),
    scans: [...new Set(scans)],
    buffers,
  };
}

async function seed(db: Client, sql: string, n: number, from: number): Promise<void> {
  await db.query(sql, [from, n]);
}

const SEED_FUTURE = `INSERT INTO posts (id, account_id, request_id, profile_id, platform, status, caption, scheduled_time)
  SELECT 'pst_f' || g, 'acc_seed_' || (g % 1000), 'crq_seed', 'prf_seed_' || (g % 5000), 'threads', 'scheduled', 'A future post',
         now() + interval '1 day' + g * interval '7 seconds'
  FROM generate_series($1::bigint + 1, $1::bigint + $2::bigint) g`;
const SEED_DISPATCHED = `INSERT INTO posts (id, account_id, request_id, profile_id, platform, status, caption, scheduled_time, dispatched_at, published_at, permalink, platform_post_id)
  SELECT 'pst_d' || g, 'acc_seed_' || (g % 1000), 'crq_seed', 'prf_seed_' || (g % 5000), 'threads', 'posted', 'A published post',
         now() - interval '1 hour' - g * interval '7 seconds', now() - interval '1 hour' - g * interval '7 seconds', now() - interval '1 hour' - g * interval '7 seconds' + interval '2 seconds',
         'https://www.threads.net/@seed/post/' || g, 'th_' || g
  FROM generate_series($1::bigint + 1, $1::bigint + $2::bigint) g`;
const SEED_DUE = `INSERT INTO posts (id, account_id, request_id, profile_id, platform, status, caption, scheduled_time)
  SELECT 'pst_due' || g, 'acc_seed_' || (g % 1000), 'crq_seed', 'prf_seed_' || (g % 5000), 'threads', 'scheduled', 'A post due now',
         now() - g * interval '10 milliseconds'
  FROM generate_series($1::bigint + 1, $1::bigint + $2::bigint) g`;

async function main(): Promise<void> {
  const env = await createTestEnv('bench_scheduler_scale');
  const figures: Figure[] = [];
  const section = 'Scheduler claim with a large posts table';
  const db = new Client({ connectionString: env.databaseUrl });
  let ok = true;
  try {
    // The posts service migrates its schema; stopped again, so that only the bench touches the table.
    const migrated = await startPosts({ ...env.env, LOG_LEVEL: 'warn', POSTS_HTTP_PORT: '0', HOST: '127.0.0.1' });
    await migrated.lifecycle.stop();
    await db.connect();
    await db.query('SET search_path = posts');

    let started = Date.now();
    await seed(db, SEED_DISPATCHED, DISPATCHED, 0);
    await seed(db, SEED_DUE, BATCH, 0);
    console.log(
      `seeded ${DISPATCHED} dispatched posts and ${BATCH} due now in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );

    const measured: {
      size: number;
      ms: number;
      dueMs: number;
      dueMedianMs: number;
      scans: string[];
      buffers: number;
    }[] = [];
    let seeded = 0;
    for (const size of SIZES) {
      started = Date.now();
      await seed(db, SEED_FUTURE, size - seeded, seeded);
      seeded = size;
      await db.query('VACUUM ANALYZE posts');
      const seedSeconds = (Date.now() - started) / 1000;
      const m = await explainClaim(db);
      measured.push({ size, ...m });
      console.log(
        `  ${String(size).padStart(8)} future posts (seeded in ${seedSeconds.toFixed(1)} s): due rows found in ${m.dueMs.toFixed(3)} ms (median ${m.dueMedianMs.toFixed(3)}), whole claim of ${BATCH} ${m.ms.toFixed(2)} ms (median) over ${RUNS} runs; ${m.buffers} buffers to find them; posts read by ${m.scans.join(', ')}`,
      );
    }
    const indexOnly = measured.every((m) => m.scans.length > 0 && m.scans.every((s) => /^Index (Only )?Scan/.test(s)));
    const growth = measured[measured.length - 1].dueMs / measured[0].dueMs;
    const flat = growth <= TARGET_GROWTH;
    // The pages read to find them: the work itself, which the rest of the machine does not disturb.
    const bufferGrowth = measured[measured.length - 1].buffers / measured[0].buffers;
    console.log(
      `  plan: ${indexOnly ? 'index scans only' : 'NOT index scans only'}; finding the due rows at ${measured[measured.length - 1].size} / at ${measured[0].size} rows: ${growth.toFixed(2)}× the time (target ≤ ${TARGET_GROWTH}×): ${flat ? 'met' : 'MISSED'}; ${bufferGrowth.toFixed(2)}× the buffers`,
    );
    figures.push(
      {
        section,
        name: 'plan reading posts',
        value: measured[measured.length - 1].scans.join(', '),
        target: 'index scans',
        met: indexOnly,
      },
      ...measured.map((m) => ({
        section,
        name: `${m.size.toLocaleString('en')} future + ${DISPATCHED.toLocaleString('en')} dispatched rows: due rows found / whole claim of ${BATCH}`,
        value: `${m.dueMs.toFixed(3)} / ${m.ms.toFixed(2)}`,
        unit: 'ms',
      })),
      {
        section,
        name: `finding the due rows at ${measured[measured.length - 1].size.toLocaleString('en')} / at ${measured[0].size.toLocaleString('en')}: time`,
        value: Number(growth.toFixed(2)),
        unit: '×',
        target: `≤ ${TARGET_GROWTH}×`,
        met: flat,
      },
      {
        section,
        name: `finding the due rows at ${measured[measured.length - 1].size.toLocaleString('en')} / at ${measured[0].size.toLocaleString('en')}: buffers`,
        value: Number(bufferGrowth.toFixed(2)),
        unit: '×',
        target: `≤ ${TARGET_GROWTH}×`,
        met: bufferGrowth <= TARGET_GROWTH,
      },
    );
    ok &&= indexOnly && flat;

    // The dispatch lag with the table at its largest: the due posts left here would be counted, so they go.
    await db.query(`DELETE FROM posts WHERE id LIKE 'pst_due%'`);
    const posts = await startPosts({ ...env.env, LOG_LEVEL: 'warn', POSTS_HTTP_PORT: '0', HOST: '127.0.0.1' });
    const ds = await openDataSource({ url: env.databaseUrl, schema: 'posts', migrations: [], poolSize: 4 });
    const bus = await openBus({
      url: env.amqpUrl,
      namespace: env.namespace,
      logger: createLogger('bench', 'warn'),
      rpcTimeoutMs: 5000,
      ephemeral: true,
    });
    try {
      const lag = await measureDispatchLag(ds, bus, { rate: RATE, seconds: SECONDS });
      const d = lagSummary(lag.dispatchLag);
      const lagOk = d.p99 < TARGET_LAG_P99_MS;
      console.log(
        `  dispatch lag at ${RATE} due posts/s for ${SECONDS} s beside ${seeded + DISPATCHED} rows${lag.late ? ` (${lag.late} slices written late: the machine is busy)` : ''}`,
      );
      console.log(`    dispatched − scheduledTime : ${formatLag(d)}`);
      console.log(`    received   − scheduledTime : ${formatLag(lagSummary(lag.receiveLag))}`);
      figures.push(
        { section, name: `dispatch lag at ${RATE} due posts/s p50`, value: Math.round(d.p50), unit: 'ms' },
        {
          section,
          name: `dispatch lag at ${RATE} due posts/s p99`,
          value: Math.round(d.p99),
          unit: 'ms',
          target: `≤ ${TARGET_LAG_P99_MS} ms`,
          met: lagOk,
        },
      );
      ok &&= lagOk;
    } finally {
      await bus.close();
      await posts.lifecycle.stop();
      await ds.destroy();
    }
  } finally {
    await db.end().catch(() => undefined);
    await env.drop().catch(() => undefined);
  }
  recordFigures(figures);
  process.exitCode = ok ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
