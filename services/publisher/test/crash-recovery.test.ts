import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { startMediaServer, type MediaServer } from '@postbus/testing';
import { publishedOn, startPublisherHarness, type PublisherHarness } from './support/harness';

let h: PublisherHarness;
let media: MediaServer;
const children: ChildProcess[] = [];

beforeAll(async () => {
  // The publisher that gets killed is a real process; the one started after it runs in this test's process.
  h = await startPublisherHarness('pub_crash', {
    sandbox: { latencyMs: 40, processingDelayMs: 150 },
    publisher: false,
  });
  media = await startMediaServer();
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await h?.stop();
  await media?.close();
});

/** `node --import tsx services/publisher/src/main.ts`, answering once it consumes the work queue. */
async function publisherProcess(): Promise<ChildProcess> {
  const before = await h.dueConsumers();
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, '..', 'src', 'main.ts')], {
    env: { ...process.env, ...h.publisherEnv, LOG_LEVEL: 'silent', PUBLISHER_CONCURRENCY: '8' },
    stdio: 'ignore',
  });
  children.push(child);
  await until(async () => (await h.dueConsumers()) > before, 'the publisher process to start');
  return child;
}

describe('a publisher process killed mid-batch', () => {
  test('when it is SIGKILLed and a publisher starts again, then every post ends in exactly one terminal state and each is on the platform once', async () => {
    const th = await h.profile('threads');
    const ig = await h.profile('instagram');
    const jobs = [
      ...Array.from({ length: 30 }, (_, i) => h.due(th, { caption: `threads crash test ${i}` })),
      ...Array.from({ length: 10 }, (_, i) =>
        h.due(ig, {
          caption: `instagram crash test ${i}`,
          mediaUrls: [media.link(i % 2 ? `v${i}.mp4` : `p${i}.jpg`, 100)],
        }),
      ),
    ];
    const first = await publisherProcess();

    await h.publish(...jobs);
    await until(async () => (await terminal(jobs)).length >= 8, 'some posts to finish');
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const inFlightAtKill = (
      await h.query(`SELECT count(*)::int AS n FROM publisher.attempts WHERE state = 'in_flight'`)
    )[0].n;
    await h.startPublisher({ PUBLISHER_CONCURRENCY: '8' });
    await until(
      async () => (await terminal(jobs)).length === jobs.length,
      'every post to reach a terminal state',
      45_000,
    );

    const rows = await terminal(jobs);
    expect(rows).toHaveLength(jobs.length);
    expect(new Set(rows.map((r) => r.post_id)).size).toBe(jobs.length);
    expect(rows.every((r) => r.state === 'published')).toBe(true);
    const items = [...(await publishedOn(h.sandbox, 'threads')), ...(await publishedOn(h.sandbox, 'instagram'))].filter(
      (p) => [th.userId, ig.userId].includes(p.userId),
    );
    for (const job of jobs) expect(items.filter((p) => p.text === job.caption)).toHaveLength(1);
    expect(items).toHaveLength(jobs.length);
    // the kill caught work in flight, which the new process took over
    expect(inFlightAtKill).toBeGreaterThan(0);
    expect(rows.some((r) => r.tries > 1)).toBe(true);
    // whatever was announced (an outcome may be announced again), each post's announcements agree
    await until(
      async () => jobs.every((j) => h.outcomes.some((o) => o.data.postId === j.postId)),
      'every outcome to be announced',
    );
    for (const job of jobs) {
      const announced = h.outcomes.filter((o) => o.data.postId === job.postId);
      expect(new Set(announced.map((o) => `${o.name}:${o.data.platformPostId}`)).size).toBe(1);
    }
  }, 90_000);
});

async function terminal(jobs: { postId: string }[]): Promise<{ post_id: string; state: string; tries: number }[]> {
  return h.query(
    `SELECT post_id, state, tries FROM publisher.attempts WHERE post_id = ANY($1) AND state IN ('published', 'failed')`,
    [jobs.map((j) => j.postId)],
  );
}

async function until(probe: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
