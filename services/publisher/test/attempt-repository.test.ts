import type { DataSource } from 'typeorm';
import { randomUUID } from 'node:crypto';
import type { PostDue } from '@postbus/contracts';
import { openDataSource } from '@postbus/kit';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import { AttemptRepository, outcomeEventId } from '../src/attempts/attempt.repository';
import { SqlParams } from '../src/database/sql-params';
import { migrations } from '../src/migrations';

let env: TestEnv;
let ds: DataSource;
let attempts: AttemptRepository;

beforeAll(async () => {
  env = await createTestEnv('publisher_attempts');
  ds = await openDataSource({ url: env.databaseUrl, schema: 'publisher', migrations });
  attempts = new AttemptRepository(ds);
});
afterAll(async () => {
  await ds?.destroy();
  await env?.drop();
});

const aDuePost = (): PostDue =>
  ({
    postId: randomUUID(),
    accountId: randomUUID(),
    profileId: randomUUID(),
    platform: 'threads',
    caption: 'hello',
    mediaUrls: [],
    platformMeta: null,
    scheduledFor: new Date().toISOString(),
  }) as unknown as PostDue;

const claimOptions = { workerId: 'worker-a', staleMs: 60_000, followUpGraceMs: 60_000 };

test('when a statement has more than nine parameters, then each placeholder answers its own value', async () => {
  const params = new SqlParams();
  const values = Array.from({ length: 12 }, (_, i) => `v${i + 1}`);
  const [row] = await ds.query(
    `SELECT ARRAY[${params.list(values)}]::text[] AS got, ${params.add(12, '::int')} AS last`,
    params.values,
  );
  expect(row.got).toEqual(values);
  expect(row.last).toBe(12);
});

test('when a post is claimed for the first time with rate slots to take, then the attempt is recorded and the slots are taken in the same statement', async () => {
  const job = aDuePost();
  const rateSlots = { keys: [`${job.profileId}:threads`], keyOf: [1], limits: [1], windows: [60_000] };

  const first = await attempts.claim(job, { ...claimOptions, rateSlots });
  const second = await attempts.claim({ ...aDuePost(), profileId: job.profileId }, { ...claimOptions, rateSlots });

  expect(first).toMatchObject({
    action: 'run',
    mode: 'fresh',
    fence: { workerId: 'worker-a', seq: 1 },
    rate: { ok: true },
    row: { post_id: job.postId, state: 'in_flight', tries: 1 },
  });
  expect(second).toMatchObject({ action: 'run', mode: 'fresh', rate: { ok: false } });
});

test("when the outcome's announcement is already waiting in the outbox, then finishing still records the outcome and queues the announcement once", async () => {
  const job = aDuePost();
  const claim = await attempts.claim(job, claimOptions);
  if (claim.action !== 'run') throw new Error(`expected to run, got ${claim.action}`);
  await ds.query(`INSERT INTO outbox (id, name, data) VALUES ($1, 'post.failed', '{}'::jsonb)`, [
    outcomeEventId(job.postId),
  ]);

  expect(await attempts.finishFailed(job, claim.fence, 'the platform refused the post')).toBe(true);

  expect(await attempts.find(job.postId)).toMatchObject({
    state: 'failed',
    failed_reason: 'the platform refused the post',
    worker_id: null,
  });
  expect(await ds.query('SELECT count(*)::int AS n FROM outbox WHERE id = $1', [outcomeEventId(job.postId)])).toEqual([
    { n: 1 },
  ]);
});

test('when the attempt is no longer ours, then finishing records nothing and announces nothing', async () => {
  const job = aDuePost();
  const claim = await attempts.claim(job, claimOptions);
  if (claim.action !== 'run') throw new Error(`expected to run, got ${claim.action}`);

  expect(
    await attempts.finishPublished(
      job,
      { ...claim.fence, workerId: 'worker-b' },
      { platformPostId: 'p1', permalink: null },
    ),
  ).toBe(false);

  expect(await attempts.find(job.postId)).toMatchObject({ state: 'in_flight', worker_id: 'worker-a' });
  expect(await ds.query('SELECT count(*)::int AS n FROM outbox WHERE id = $1', [outcomeEventId(job.postId)])).toEqual([
    { n: 0 },
  ]);
});

test('when the attempt is ours, then publishing records the outcome and queues its announcement', async () => {
  const job = aDuePost();
  const claim = await attempts.claim(job, claimOptions);
  if (claim.action !== 'run') throw new Error(`expected to run, got ${claim.action}`);

  expect(
    await attempts.finishPublished(job, claim.fence, { platformPostId: 'p1', permalink: 'https://example.test/p1' }),
  ).toBe(true);

  expect(await attempts.find(job.postId)).toMatchObject({
    state: 'published',
    platform_post_id: 'p1',
    permalink: 'https://example.test/p1',
  });
  const [row] = await ds.query('SELECT name, data FROM outbox WHERE id = $1', [outcomeEventId(job.postId)]);
  expect(row).toMatchObject({ name: 'post.published', data: { postId: job.postId, platformPostId: 'p1' } });
});
