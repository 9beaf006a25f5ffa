import type { DataSource } from 'typeorm';
import { AppError, type Principal, type Profile } from '@postbus/contracts';
import { openDataSource } from '@postbus/kit';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import { migrations } from '../src/migrations';
import { PostRepository } from '../src/posts/post.repository';
import type { PostsPorts } from '../src/posts/posts.ports';
import { seriesRepository } from '../src/series/series.repository';
import { createSeries, extendDueSeries, extendSeries } from '../src/series/series.use-cases';

let env: TestEnv;
let ds: DataSource;
let now: Date;
let perMonth: number;
let authDown: boolean;

const ACCOUNT = 'acc_series';
const principal: Principal = {
  accountId: ACCOUNT,
  userId: 'usr_s',
  credential: { type: 'api_key', id: 'key_s' },
  scopes: ['post:write'],
  profileIds: 'all',
};
const threads = { id: 'prf_threads', platform: 'threads', status: 'active' } as Profile;

function ports(): PostsPorts {
  // The other services' answers (connections' profiles, auth's plan) stand in here; posts' own tables are real.
  return {
    ds,
    posts: new PostRepository(ds),
    listProfiles: async () => [threads],
    connectionHealth: async () => {
      throw new Error('not asked');
    },
    resolveMedia: async () => {
      throw new Error('not asked');
    },
    getAccount: async () => {
      if (authDown)
        throw new AppError('service_unavailable', 'The auth service is unavailable (broker not connected).');
      return accountSummary();
    },
    tiktokPullPrefixes: [],
    clock: () => now,
    nextTick: (t) => t,
    seriesHorizonDays: 7,
  };
}

function accountSummary() {
  return {
    accountId: ACCOUNT,
    plan: 'pro',
    tester: false,
    disabled: false,
    trialEndsAt: now.toISOString(),
    createdAt: now.toISOString(),
    entitled: true,
    quotas: { scheduledPostsPerMonth: perMonth, storageBytes: 1 },
  };
}

const postsOf = async (seriesId: string) =>
  (await seriesRepository.occurrences(ds, seriesId)).map((o) => ({
    index: o.index,
    at: new Date(o.scheduled_time).toISOString(),
    posts: o.post_ids.length,
    error: o.error_code,
  }));
const countPosts = async () =>
  Number((await ds.query(`SELECT count(*)::int AS n FROM posts WHERE account_id = $1`, [ACCOUNT]))[0].n);

beforeAll(async () => {
  env = await createTestEnv('posts_series');
  ds = await openDataSource({ url: env.databaseUrl, schema: 'posts', migrations, poolSize: 4 });
});
beforeEach(async () => {
  now = new Date('2027-01-01T00:00:00Z');
  perMonth = 1000;
  authDown = false;
  await ds.query('TRUNCATE series CASCADE');
  await ds.query('DELETE FROM posts');
  await ds.query('DELETE FROM monthly_post_counts');
});
afterAll(async () => {
  await ds?.destroy();
  await env?.drop();
});

const daily = {
  platforms: ['threads'] as ['threads'],
  caption: 'every day',
  scheduledTime: '2027-01-01T09:00:00',
  timezone: 'Europe/Berlin',
  recurrence: 'FREQ=DAILY',
};

describe('extending a recurring post over time', () => {
  test('when created, then the occurrences within the horizon exist; as time passes, the next ones are created in order', async () => {
    const created = await createSeries(ports(), principal, daily, {});
    expect(created.postIds).toHaveLength(7); // 1 Jan 09:00 Berlin … 7 Jan; 8 Jan is past the 7-day horizon
    now = new Date('2027-01-03T12:00:00Z');
    // Up to 10 Jan 12:00 UTC: the 8th, 9th and 10th at 09:00 Berlin.
    expect(await extendDueSeries(ports(), 10)).toBe(3);
    const occurrences = await postsOf(created.seriesId!);
    expect(occurrences.map((o) => o.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(occurrences.at(-1)).toEqual({ index: 9, at: '2027-01-10T08:00:00.000Z', posts: 1, error: null });
    const row = await seriesRepository.find(ds, ACCOUNT, created.seriesId!);
    expect({ status: row!.status, next: new Date(row!.next_time!).toISOString(), nextIndex: row!.next_index }).toEqual({
      status: 'active',
      next: '2027-01-11T08:00:00.000Z',
      nextIndex: 10,
    });
  });

  test('when two replicas extend the same series at once, or one extends it again, then every occurrence exists once', async () => {
    const created = await createSeries(ports(), principal, { ...daily, recurrence: 'FREQ=DAILY;COUNT=20' }, {});
    const row = (await seriesRepository.find(ds, ACCOUNT, created.seriesId!))!;
    now = new Date('2027-01-10T00:00:00Z');
    await Promise.all([extendSeries(ports(), row, now), extendSeries(ports(), row, now), extendDueSeries(ports(), 10)]);
    await extendDueSeries(ports(), 10);
    const occurrences = await postsOf(created.seriesId!);
    expect(occurrences.map((o) => o.index)).toEqual(Array.from({ length: 16 }, (_, i) => i));
    // Those already past when the series was extended (8 and 9 Jan) are reported, not created late.
    expect(occurrences.filter((o) => o.error).map((o) => [o.index, o.error])).toEqual([
      [7, 'scheduled_time_in_past'],
      [8, 'scheduled_time_in_past'],
    ]);
    expect(await countPosts()).toBe(14);
  });

  test('when a service is down while an occurrence falls to be created, then it is not recorded as refused, and the next run creates it', async () => {
    const created = await createSeries(ports(), principal, { ...daily, recurrence: 'FREQ=DAILY;COUNT=9' }, {});
    now = new Date('2027-01-02T12:00:00Z');
    authDown = true;
    await expect(extendDueSeries(ports(), 10)).rejects.toMatchObject({ code: 'service_unavailable' });
    expect((await postsOf(created.seriesId!)).filter((o) => o.error)).toEqual([]);
    authDown = false;
    await extendDueSeries(ports(), 10);
    const occurrences = await postsOf(created.seriesId!);
    expect(occurrences.map((o) => o.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(occurrences.filter((o) => o.error)).toEqual([]);
  });

  test('when a series is cancelled, then extending it creates nothing more', async () => {
    const created = await createSeries(ports(), principal, daily, {});
    await seriesRepository.cancel(ds, ACCOUNT, created.seriesId!);
    now = new Date('2027-01-05T00:00:00Z');
    await extendDueSeries(ports(), 10);
    expect(await postsOf(created.seriesId!)).toHaveLength(7);
  });

  test('when the quota runs out, then the refused occurrences are recorded with the code, and the series goes on', async () => {
    perMonth = 3;
    const created = await createSeries(ports(), principal, { ...daily, recurrence: 'FREQ=DAILY;COUNT=5' }, {});
    expect(created.postIds).toHaveLength(3);
    expect((await postsOf(created.seriesId!)).map((o) => [o.index, o.error])).toEqual([
      [0, null],
      [1, null],
      [2, null],
      [3, 'quota_exceeded'],
      [4, 'quota_exceeded'],
    ]);
    expect((await seriesRepository.find(ds, ACCOUNT, created.seriesId!))!.status).toBe('ended');
  });

  test('when the same idempotency key creates a series twice, then the second answers the first and nothing more is stored', async () => {
    const first = await createSeries(
      ports(),
      principal,
      { ...daily, recurrence: 'FREQ=DAILY;COUNT=3' },
      { idempotencyKey: 'weekly-digest' },
    );
    const again = await createSeries(
      ports(),
      principal,
      { ...daily, recurrence: 'FREQ=DAILY;COUNT=3' },
      { idempotencyKey: 'weekly-digest' },
    );
    expect(again).toMatchObject({ seriesId: first.seriesId, postIds: first.postIds, replayed: true });
    expect(await countPosts()).toBe(3);
  });
});
