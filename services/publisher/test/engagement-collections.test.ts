import type { DataSource } from 'typeorm';
import { openDataSource } from '@postbus/kit';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import { parseOffsets } from '../src/insights/insights.config';
import { EngagementRepository } from '../src/insights/engagement.repository';
import { migrations } from '../src/migrations';

let env: TestEnv;
let ds: DataSource;
let repo: EngagementRepository;

const HOUR = 3_600_000;
const OFFSETS = [HOUR, 24 * HOUR, 7 * 24 * HOUR];

beforeAll(async () => {
  env = await createTestEnv('publisher_engagement');
  ds = await openDataSource({ url: env.databaseUrl, schema: 'publisher', migrations, poolSize: 4 });
  repo = new EngagementRepository(ds);
});
afterAll(async () => {
  await ds?.destroy();
  await env?.drop();
});
beforeEach(async () => {
  await ds.query('DELETE FROM engagement_collections');
  await ds.query('DELETE FROM attempts');
});

/** An attempt of the publisher's log: published `agoMs` ago unless another state is given. */
async function attempt(postId: string, agoMs: number, state = 'published', accountId = 'acc_a'): Promise<void> {
  await ds.query(
    `INSERT INTO attempts (post_id, account_id, profile_id, platform, state, platform_post_id, finished_at)
     VALUES ($1, $2, 'prf_1', 'threads', $3, $4, now() - $5::bigint * interval '1 millisecond')`,
    [postId, accountId, state, state === 'published' ? `th_${postId}` : null, agoMs],
  );
}

const stages = async () => Object.fromEntries((await repo.due(OFFSETS, 100)).map((d) => [d.postId, d.stage]));

describe('which published posts are due a collection', () => {
  test('when posts were published at different times, then each is due at the latest offset it has passed', async () => {
    await attempt('pst_fresh', 10 * 60_000);
    await attempt('pst_hour', 2 * HOUR);
    await attempt('pst_day', 30 * HOUR);
    await attempt('pst_week', 8 * 24 * HOUR);
    await attempt('pst_failed', 30 * HOUR, 'failed');
    await attempt('pst_retry', 30 * HOUR, 'retry');

    expect(await stages()).toEqual({ pst_hour: 0, pst_day: 1, pst_week: 2 });
  });

  test('when a stage was collected (or failed definitively), then the post is due again only at the next offset', async () => {
    await attempt('pst_a', 2 * HOUR);
    await attempt('pst_b', 30 * HOUR);
    const [a, b] = await repo.due(OFFSETS, 100);
    await repo.record(a, { figures: { views: 10, likes: 2, comments: 1, shares: 0 } });
    await repo.record(b, { error: 'The item was deleted.' });

    expect(await stages()).toEqual({});

    // A week later, pst_a is due its last collection; the day's collection, missed meanwhile, is not made up.
    await ds.query(`UPDATE attempts SET finished_at = finished_at - interval '7 days' WHERE post_id = 'pst_a'`);
    expect(await stages()).toEqual({ pst_a: 2 });
  });

  test('when figures are asked for, then each post answers its latest successful collection, only for its own account', async () => {
    await attempt('pst_x', 30 * HOUR);
    await attempt('pst_y', 2 * HOUR, 'published', 'acc_b');
    const due = await repo.due([HOUR], 100);
    for (const d of due) await repo.record(d, { figures: { views: 100, likes: 5, comments: null, shares: 1 } });
    const second = { ...due.find((d) => d.postId === 'pst_x')!, stage: 1 };
    await repo.record(second, { figures: { views: 150, likes: 7, comments: null, shares: 2 } });
    await repo.record({ ...second, stage: 2 }, { error: 'Threads was unreachable.' });

    const figures = await repo.latest('acc_a', ['pst_x', 'pst_y', 'pst_unknown']);

    expect(figures).toEqual([
      {
        postId: 'pst_x',
        platform: 'threads',
        views: 150,
        likes: 7,
        comments: null,
        shares: 2,
        collectedAt: expect.any(String),
        stage: 1,
      },
    ]);
    expect(await repo.latest('acc_b', ['pst_x'])).toEqual([]);
  });

  test('when a batch is smaller than what is due, then the oldest posts come first', async () => {
    await attempt('pst_new', 2 * HOUR);
    await attempt('pst_old', 3 * HOUR);
    expect((await repo.due(OFFSETS, 1)).map((d) => d.postId)).toEqual(['pst_old']);
  });
});

describe('collection offsets', () => {
  test('when offsets are given as durations, then they are read in milliseconds', () => {
    expect(parseOffsets('1h,24h,7d')).toEqual(OFFSETS);
    expect(parseOffsets('500ms, 2s, 1m')).toEqual([500, 2000, 60_000]);
  });

  test.each(['', '1h,1h', '2h,1h', '0s', '5', '1w'])('when the offsets are %j, then they are refused', (raw) => {
    expect(() => parseOffsets(raw)).toThrow();
  });
});

describe("the collector's run lock", () => {
  test('when another session holds the lock, then the work does not run; once it is released, the work runs', async () => {
    const outer = await repo.whileLocked('publisher:test-lock', async () => ({
      inner: await repo.whileLocked('publisher:test-lock', async () => 'ran inside'),
    }));
    const after = await repo.whileLocked('publisher:test-lock', async () => 'ran after');

    expect(outer).toEqual({ inner: undefined });
    expect(after).toBe('ran after');
  });
});
