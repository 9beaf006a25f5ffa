/**
 * The publisher drain, shared by the drain benches: N due Threads posts published straight onto
 * the bus, drained against the sandbox by 1, 2 and 4 publisher processes
 * (`node --require tsx/cjs services/publisher/src/main.ts`, as `npm start` runs it), each run
 * after an untimed warm-up. Measures posts per second, the sandbox requests each post took and
 * the CPU each published post cost, per process kind (/proc utime + stime).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { openBus, type Bus } from '@postbus/bus';
import { Events, Rpc, type PostDue } from '@postbus/contracts';
import { createLogger } from '@postbus/kit';
import { createTestEnv, freePort, waitFor, type TestEnv } from '@postbus/testing';
import { SERVICE_LOADER } from '../../scripts/service-node-options';

/** Posts per profile: under Threads' 250 a day, so neither the sandbox nor the publisher's own limit defers any. */
const POSTS_PER_PROFILE = 50;
const ROOT = join(__dirname, '..', '..');

export interface DrainSettings {
  /** Posts in each measured drain. */
  posts: number;
  /** PUBLISHER_CONCURRENCY of every publisher process. */
  concurrency: number;
  /** The sandbox platform latency, per request. */
  latencyMs: number;
  /** Publisher process counts, one drain each. */
  processes: number[];
  /** Posts each process publishes, untimed, before the measured drain. */
  warmupPerProcess: number;
}

/** CPU milliseconds per published post, by process kind. */
export interface CpuPerPost {
  publishers: number;
  sandbox: number;
  connections: number;
  /** Every PostgreSQL and RabbitMQ process on the machine (shared with anything else running). */
  infrastructure: number;
}

export interface DrainResult {
  processes: number;
  postsPerSecond: number;
  seconds: number;
  failed: number;
  cpu: CpuPerPost;
  /** Sandbox requests per measured post (create, status polls, publish). */
  requestsPerPost: number;
}

const lastRequestSeq = (requests: { seq: number }[]) => requests.reduce((max, r) => Math.max(max, r.seq), 0);

export const describeCpu = (c: CpuPerPost) =>
  `CPU ms/post: publishers ${c.publishers.toFixed(2)}, sandbox ${c.sandbox.toFixed(2)}, connections ${c.connections.toFixed(2)}, postgres+rabbitmq ${c.infrastructure.toFixed(2)}`;

interface Child {
  proc: ChildProcess;
  ready: Promise<void>;
}

/** Runs a service's main.ts as its own process; resolves `ready` once its log line `marker` appears. */
const children = new Set<ChildProcess>();
process.on('exit', () => children.forEach((c) => c.exitCode === null && c.kill('SIGKILL')));

function launch(entry: string, env: Record<string, string>, marker: string, nodeArgs: string[] = []): Child {
  const proc = spawn(process.execPath, [...nodeArgs, ...SERVICE_LOADER, join(ROOT, entry)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: ROOT,
  });
  children.add(proc);
  proc.once('exit', () => children.delete(proc));
  const ready = new Promise<void>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(marker)) resolve();
      if (seen.length > 100_000) seen = seen.slice(-10_000);
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (process.env.BENCH_VERBOSE) process.stderr.write(chunk);
    });
    proc.once('exit', (code) =>
      reject(new Error(`${entry} exited (${code}) before it was ready:\n${seen.slice(-2000)}`)),
    );
  });
  ready.catch(() => undefined); // a child stopped before its marker appeared is not an error by itself
  return { proc, ready };
}

/** CPU seconds (user + system) a process has used so far, from /proc; null where /proc is not available. */
function cpuSeconds(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** CPU seconds of every PostgreSQL and RabbitMQ process on this machine (shared with anything else running). */
function infrastructureCpuSeconds(): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (name !== 'postgres' && name !== 'beam.smp') continue;
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

async function stopChild(child: Child): Promise<void> {
  if (child.proc.exitCode !== null) return;
  const exited = new Promise((resolve) => child.proc.once('exit', resolve));
  child.proc.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (child.proc.exitCode === null) child.proc.kill('SIGKILL');
}

async function control(sandboxUrl: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${sandboxUrl}/__sandbox${path}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`sandbox ${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
}

/** Fresh sandbox users connected as profiles of one account: the run's posts spread over them. */
async function seedProfiles(
  bus: Bus,
  sandboxUrl: string,
  count: number,
): Promise<{ accountId: string; profileIds: string[] }> {
  const accountId = `acc_bench_${randomBytes(4).toString('hex')}`;
  const profileIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const user = await control(sandboxUrl, 'POST', '/users', {
      platform: 'threads',
      handle: `bench_${i}_${randomBytes(2).toString('hex')}`,
    });
    const profile = await bus.rpc.call(Rpc.connectionsSeedProfile, {
      accountId,
      platform: 'threads',
      platformUserId: user.userId,
      handle: user.handle,
      accessToken: user.accessToken,
    });
    profileIds.push(profile.id);
  }
  return { accountId, profileIds };
}

interface Others {
  sandbox: Child;
  connections: Child;
}

async function drain(
  env: TestEnv,
  bus: Bus,
  db: Client,
  sandboxUrl: string,
  processes: number,
  run: string,
  others: Others,
  s: DrainSettings,
): Promise<DrainResult> {
  await control(sandboxUrl, 'POST', '/reset');
  await control(sandboxUrl, 'POST', '/settings', { latencyMs: s.latencyMs, processingDelayMs: 0 });
  const { accountId, profileIds } = await seedProfiles(bus, sandboxUrl, Math.ceil(s.posts / POSTS_PER_PROFILE));

  const publisherEnv = {
    ...env.env,
    LOG_LEVEL: 'warn',
    SANDBOX_URL: sandboxUrl,
    PUBLISHER_CONCURRENCY: String(s.concurrency),
    PLATFORM_POLL_INTERVAL_MS: '50',
  };
  // A publisher logs its start at info; at warn it is silent, so readiness is read from the workers table instead.
  const nodeArgs = (process.env.BENCH_PUBLISHER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const publishers = Array.from({ length: processes }, () =>
    launch('services/publisher/src/main.ts', publisherEnv, '\u0000never', nodeArgs),
  );
  const before = Number((await db.query('SELECT count(*) FROM publisher.workers')).rows[0].count);
  await waitFor(
    async () =>
      Number((await db.query('SELECT count(*) FROM publisher.workers')).rows[0].count) >= before + processes
        ? true
        : undefined,
    {
      timeoutMs: 60_000,
      intervalMs: 200,
      what: `${processes} publisher processes to start`,
    },
  );

  try {
    const now = new Date().toISOString();
    const jobsOf = (prefix: string, count: number): PostDue[] =>
      Array.from({ length: count }, (_, i) => ({
        postId: `pst_${prefix}_${String(i).padStart(6, '0')}`,
        accountId,
        profileId: profileIds[i % profileIds.length],
        platform: 'threads',
        caption: `Benchmark post ${i} of run ${prefix}`,
        title: null,
        mediaUrls: [],
        platformMeta: null,
        scheduledTime: now,
        dispatchedAt: now,
      }));
    const publishAll = async (jobs: PostDue[]) => {
      for (let i = 0; i < jobs.length; i += 500)
        await bus.events.publish(jobs.slice(i, i + 500).map((data) => ({ name: Events.postDue.name, data })));
    };
    // Untimed warm-up: each process's first posts pay for compiling its hot code and filling its
    // connection pools, a cost that would weigh more on the short runs of many processes.
    const warmup = s.warmupPerProcess * processes;
    await publishAll(jobsOf(`${run}w`, warmup));
    const warmFailed = await waitFor(
      async () => {
        const { rows } = await db.query(
          `SELECT count(*)::int AS n, count(*) FILTER (WHERE state = 'failed')::int AS failed FROM publisher.attempts WHERE post_id LIKE $1 AND state IN ('published', 'failed')`,
          [`pst\\_${run}w\\_%`],
        );
        return rows[0].n >= warmup ? { failed: rows[0].failed as number } : undefined;
      },
      { timeoutMs: 10 * 60_000, intervalMs: 500, what: `${warmup} warm-up posts` },
    );
    const jobs = jobsOf(run, s.posts);
    const seqBefore = lastRequestSeq(await control(sandboxUrl, 'GET', '/requests?platform=threads'));
    const cpuBefore = [
      ...publishers.map((p) => cpuSeconds(p.proc.pid)),
      cpuSeconds(others.sandbox.proc.pid),
      cpuSeconds(others.connections.proc.pid),
      infrastructureCpuSeconds(),
    ];
    const started = Date.now();
    await publishAll(jobs);
    // Polled once a second (the count scans this run's attempts; polling it often would load the
    // machine being measured); the drain ends when the last attempt finished, not when it was seen.
    const done = await waitFor(
      async () => {
        const { rows } = await db.query(
          `SELECT state, count(*)::int AS n, max(finished_at) AS last FROM publisher.attempts WHERE post_id LIKE $1 AND state IN ('published', 'failed') GROUP BY state`,
          [`pst\\_${run}\\_%`],
        );
        const total = rows.reduce((sum: number, r: { n: number }) => sum + r.n, 0);
        return total >= s.posts ? rows : undefined;
      },
      { timeoutMs: 30 * 60_000, intervalMs: 1000, what: `${s.posts} posts to drain` },
    );
    const lastFinished = Math.max(...done.map((r: { last: Date }) => new Date(r.last).getTime()));
    const seconds = (lastFinished - started) / 1000;
    const cpuAfter = [
      ...publishers.map((p) => cpuSeconds(p.proc.pid)),
      cpuSeconds(others.sandbox.proc.pid),
      cpuSeconds(others.connections.proc.pid),
      infrastructureCpuSeconds(),
    ];
    const perPost = (i: number[]) =>
      (i.reduce((sum, k) => sum + ((cpuAfter[k] ?? 0) - (cpuBefore[k] ?? 0)), 0) * 1000) / s.posts;
    const cpu: CpuPerPost = {
      publishers: perPost(publishers.map((_, i) => i)),
      sandbox: perPost([processes]),
      connections: perPost([processes + 1]),
      infrastructure: perPost([processes + 2]),
    };
    const requests = (await control(sandboxUrl, 'GET', `/requests?platform=threads&since=${seqBefore}`)).length;
    const failed = done.find((r: { state: string }) => r.state === 'failed')?.n ?? 0;
    const published = (await control(sandboxUrl, 'GET', '/published?platform=threads')).length;
    const expected = s.posts + warmup - failed - warmFailed.failed;
    if (published !== expected) throw new Error(`the sandbox holds ${published} posts for ${expected} published`);
    return { processes, postsPerSecond: s.posts / seconds, seconds, failed, cpu, requestsPerPost: requests / s.posts };
  } finally {
    await Promise.all(publishers.map(stopChild));
  }
}

/** Starts the sandbox and connections once, then drains once per process count; prints each drain as it ends. */
export async function runDrains(s: DrainSettings): Promise<DrainResult[]> {
  const env = await createTestEnv('bench_publisher');
  const sandboxPort = await freePort();
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const sandbox = launch(
    'services/sandbox/src/main.ts',
    {
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_LATENCY_MS: String(s.latencyMs),
      SANDBOX_PROCESSING_DELAY_MS: '0',
      LOG_LEVEL: 'info',
    },
    'sandbox listening',
    (process.env.BENCH_SANDBOX_NODE_ARGS ?? '').split(' ').filter(Boolean),
  );
  const connections = launch(
    'services/connections/src/main.ts',
    { ...env.env, LOG_LEVEL: 'info', SANDBOX_URL: sandboxUrl, CONNECTIONS_HTTP_PORT: '0' },
    'connections started',
  );
  const bus = await openBus({
    url: env.amqpUrl,
    namespace: env.namespace,
    logger: createLogger('bench', 'silent'),
    rpcTimeoutMs: 10_000,
    ephemeral: true,
  });
  const db = new Client({ connectionString: env.databaseUrl });
  const results: DrainResult[] = [];
  try {
    await Promise.all([sandbox.ready, connections.ready]);
    await db.connect();
    // One publisher start migrates the schema before the measured runs.
    const warm = launch(
      'services/publisher/src/main.ts',
      { ...env.env, LOG_LEVEL: 'info', SANDBOX_URL: sandboxUrl },
      'publisher started',
    );
    await warm.ready;
    await stopChild(warm);

    console.log(
      `publisher drain: ${s.posts} Threads posts, sandbox latency ${s.latencyMs} ms, PUBLISHER_CONCURRENCY=${s.concurrency}`,
    );
    for (const processes of s.processes) {
      const r = await drain(
        env,
        bus,
        db,
        sandboxUrl,
        processes,
        `r${processes}${randomBytes(2).toString('hex')}`,
        { sandbox, connections },
        s,
      );
      results.push(r);
      console.log(
        `  ${processes} process${processes === 1 ? ' ' : 'es'}: ${r.postsPerSecond.toFixed(1).padStart(7)} posts/s  (${r.seconds.toFixed(1)} s${r.failed ? `, ${r.failed} failed` : ''}; ${r.requestsPerPost.toFixed(2)} requests/post; ${describeCpu(r.cpu)})`,
      );
    }
  } finally {
    await db.end().catch(() => undefined);
    await bus.close().catch(() => undefined);
    await Promise.all([stopChild(sandbox), stopChild(connections)]);
    await env.drop().catch(() => undefined);
  }
  return results;
}
