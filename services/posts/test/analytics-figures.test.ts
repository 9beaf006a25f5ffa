import type { DataSource } from 'typeorm';
import { AppError, type AnalyticsGroup } from '@postbus/contracts';
import { openDataSource } from '@postbus/kit';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import { parseAnalyticsQuery } from '../src/analytics/analytics-query.rules';
import { AnalyticsRepository } from '../src/analytics/analytics.repository';
import { sumEngagement } from '../src/analytics/engagement-totals';
import { migrations } from '../src/migrations';
import { PostRepository, type NewPost } from '../src/posts/post.repository';
import { aPost } from './post-builder';

let env: TestEnv;
let ds: DataSource;
let repo: AnalyticsRepository;

const ACCOUNT = 'acc_analytics';
const T0 = Date.parse('2026-03-10T22:00:00Z');
const at = (ms: number) => new Date(T0 + ms);

interface Seed {
  status: NewPost['status'];
  platform?: string;
  profile?: string;
  category?: string | null;
  dueAt: number;
  /** Dispatch lag in ms; absent: not dispatched. */
  lag?: number;
  reason?: string;
  account?: string;
}

async function seed(rows: Seed[]): Promise<void> {
  const built = rows.map((r) => ({
    row: {
      ...aPost()
        .forAccount(r.account ?? ACCOUNT)
        .withStatus(r.status)
        .build(),
      platform: r.platform ?? 'threads',
      profile_id: r.profile ?? `prf_${r.platform ?? 'threads'}`,
      category: r.category ?? null,
      scheduled_time: at(r.dueAt),
    },
    r,
  }));
  await ds.transaction((m) =>
    new PostRepository(ds).insertMany(
      m,
      built.map((b) => b.row),
    ),
  );
  for (const { row, r } of built) {
    if (r.lag !== undefined || r.reason)
      await ds.query('UPDATE posts SET dispatched_at = $2, failed_reason = $3 WHERE id = $1', [
        row.id,
        r.lag === undefined ? null : at(r.dueAt + r.lag),
        r.reason ?? null,
      ]);
  }
}

const range = (group: AnalyticsGroup | 'none', from = at(-3600_000), to = at(6 * 3600_000)) => ({
  accountId: ACCOUNT,
  from,
  to,
  group,
});

beforeAll(async () => {
  env = await createTestEnv('posts_analytics');
  ds = await openDataSource({ url: env.databaseUrl, schema: 'posts', migrations, poolSize: 4 });
  repo = new AnalyticsRepository(ds);
  // Eleven published posts on threads, lagging 0, 100, …, 1000 ms; two failures on facebook; one waiting, one cancelled.
  await seed([
    ...Array.from({ length: 11 }, (_, i): Seed => ({
      status: 'posted',
      category: i < 6 ? 'launch' : 'tips',
      dueAt: i * 60_000,
      lag: i * 100,
    })),
    {
      status: 'failed',
      platform: 'facebook',
      category: 'launch',
      dueAt: 3 * 3600_000,
      lag: 5000,
      reason: 'The Page token expired.',
    },
    { status: 'failed', platform: 'facebook', dueAt: 3 * 3600_000 + 1, lag: 7000, reason: 'The Page token expired.' },
    {
      status: 'failed',
      platform: 'threads',
      category: 'tips',
      dueAt: 3 * 3600_000 + 2,
      lag: 9000,
      reason: 'Threads refused the text.',
    },
    { status: 'scheduled', category: 'launch', dueAt: 4 * 3600_000 },
    { status: 'cancelled', platform: 'facebook', dueAt: 4 * 3600_000 },
    // Never counted: drafts and other states, other accounts, and posts outside the range.
    { status: 'draft', dueAt: 60_000 },
    { status: 'pending_approval', dueAt: 60_000 },
    { status: 'rejected', dueAt: 60_000 },
    { status: 'posted', dueAt: 60_000, lag: 50, account: 'acc_other' },
    { status: 'posted', dueAt: -3600_000 - 1, lag: 50 },
    { status: 'posted', dueAt: 6 * 3600_000, lag: 50 },
  ]);
});
afterAll(async () => {
  await ds?.destroy();
  await env?.drop();
});

describe('analytics figures of the posts table', () => {
  test('when posts published with known dispatch lags, then the median and p95 are the percentiles of those lags', async () => {
    const threads = (await repo.statusFigures(range('platform'))).find((f) => f.key === 'threads')!;
    // 0, 100, …, 1000 and 9000: the median of twelve lags is 550; p95 interpolates between 1000 and 9000.
    expect(threads).toEqual({
      key: 'threads',
      scheduled: 13,
      posted: 11,
      failed: 1,
      pending: 1,
      cancelled: 0,
      dispatched: 12,
      medianLagMs: 550,
      p95LagMs: Math.round(1000 + 0.45 * 8000),
    });
  });

  test('when not grouped, then one row holds every post in the range, the range being inclusive at from and exclusive at to', async () => {
    expect(await repo.statusFigures(range('none'))).toEqual([
      {
        key: null,
        scheduled: 15,
        posted: 11,
        failed: 3,
        pending: 1,
        cancelled: 1,
        dispatched: 14,
        medianLagMs: 650,
        p95LagMs: expect.any(Number),
      },
    ]);
    const shifted = await repo.statusFigures(range('none', at(-3600_000 - 1), at(6 * 3600_000 + 1)));
    expect(shifted[0]).toMatchObject({ scheduled: 17, posted: 13 });
  });

  test('when grouped by category or day, then each key has its posts and posts without a category are grouped under null', async () => {
    const byCategory = await repo.statusFigures(range('category'));
    expect(byCategory.map((f) => [f.key, f.scheduled, f.posted, f.failed, f.pending, f.cancelled])).toEqual([
      ['launch', 8, 6, 1, 1, 0],
      ['tips', 6, 5, 1, 0, 0],
      [null, 1, 0, 1, 0, 1],
    ]);
    // T0 is 22:00 UTC: the first two hours fall on the 10th, the rest on the 11th.
    const byDay = await repo.statusFigures(range('day'));
    expect(byDay.map((f) => [f.key, f.scheduled, f.cancelled])).toEqual([
      ['2026-03-10', 11, 0],
      ['2026-03-11', 4, 1],
    ]);
  });

  test('when posts failed, then their reasons are counted per key, most frequent first', async () => {
    expect(await repo.failureReasons(range('none'))).toEqual([
      { key: null, reason: 'The Page token expired.', count: 2 },
      { key: null, reason: 'Threads refused the text.', count: 1 },
    ]);
    expect(await repo.failureReasons(range('platform'))).toEqual([
      { key: 'facebook', reason: 'The Page token expired.', count: 2 },
      { key: 'threads', reason: 'Threads refused the text.', count: 1 },
    ]);
  });

  test('when the published posts are asked for, then only posted ones of the account in the range come back with their key', async () => {
    const posted = await repo.postedPosts(range('category'));
    expect(posted).toHaveLength(11);
    expect(posted.filter((p) => p.key === 'launch')).toHaveLength(6);
  });
});

describe('analytics rules', () => {
  const now = new Date('2026-05-01T12:00:00Z');

  test('when no range is given, then it is the 30 days before now; a lone from runs to now', () => {
    expect(parseAnalyticsQuery({}, now)).toEqual({ from: new Date('2026-04-01T12:00:00Z'), to: now, groupBy: null });
    expect(parseAnalyticsQuery({ from: '2026-04-20T00:00:00+02:00', groupBy: 'day' }, now)).toEqual({
      from: new Date('2026-04-19T22:00:00Z'),
      to: now,
      groupBy: 'day',
    });
  });

  test.each([
    [{ from: '2026-04-01' }, /from must be an ISO 8601 datetime/],
    [{ to: '2026-04-01T10:00:00' }, /to must be an ISO 8601 datetime/],
    [{ from: '2026-05-01T12:00:00Z' }, /from must be before to/],
    [{ from: '2025-04-01T00:00:00Z' }, /at most 366 days/],
    [{ groupBy: 'hour' }, /groupBy must be one of/],
  ])('when the query is %j, then validation_error', (query, message) => {
    const err = (() => {
      try {
        parseAnalyticsQuery(query, now);
      } catch (e) {
        return e as AppError;
      }
    })();
    expect(err).toBeInstanceOf(AppError);
    expect(err!.code).toBe('validation_error');
    expect(err!.message).toMatch(message);
  });

  test('when some posts report a figure and others do not, then the sum covers those that do and a figure nobody reports stays null', () => {
    const at1 = '2026-05-01T10:00:00.000Z';
    const at2 = '2026-05-01T11:00:00.000Z';
    expect(
      sumEngagement([
        {
          postId: 'a',
          platform: 'youtube',
          views: 10,
          likes: 2,
          comments: 1,
          shares: null,
          collectedAt: at2,
          stage: 1,
        },
        {
          postId: 'b',
          platform: 'youtube',
          views: 5,
          likes: null,
          comments: 0,
          shares: null,
          collectedAt: at1,
          stage: 0,
        },
      ]),
    ).toEqual({ posts: 2, views: 15, likes: 2, comments: 1, shares: null, lastCollectedAt: at2 });
    expect(sumEngagement([])).toEqual({
      posts: 0,
      views: null,
      likes: null,
      comments: null,
      shares: null,
      lastCollectedAt: null,
    });
  });
});
