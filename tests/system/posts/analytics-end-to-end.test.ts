import { callSandbox, waitFor, type SeededAccount } from '@postbus/testing';
import { api } from '../support/posts-api';
import { FAST_INSIGHTS_ENV, useSystem } from '../support/use-system';

const ctx = useSystem('gateway_analytics', { env: FAST_INSIGHTS_ENV });

const call = (path: string, key: string, init: { method?: string; body?: unknown } = {}) =>
  api(ctx.system, path, { ...init, key });
const sandbox = async (method: string, path: string, body?: unknown) =>
  (await callSandbox<any>(ctx.system.sandboxUrl, method, path, body)).body;

const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

interface Post {
  id: string;
  status: string;
  platforms: string[];
  profileIds: string[];
  category: string | null;
  scheduledTime: string;
  updatedAt: string;
  failedReason: string | null;
  permalink: string | null;
}

describe('analytics over posts created for the purpose', () => {
  let account: SeededAccount;
  let from: string;
  let to: string;
  let posts: Post[];
  let threads: string;
  let facebook: string;

  const create = async (platform: 'threads' | 'facebook', category: string, scheduledTime?: string) => {
    const r = await call('/api/v1/posts', account.apiKey, {
      method: 'POST',
      body: {
        platforms: [platform],
        profileIds: [platform === 'threads' ? threads : facebook],
        caption: `${category} on ${platform} ${Math.random()}`,
        category,
        scheduledTime,
      },
    });
    expect(r.status).toBe(201);
    return r.body.postIds[0] as string;
  };
  const settled = (id: string) =>
    waitFor(
      async () => {
        const r = await call(`/api/v1/posts/${id}`, account.apiKey);
        return r.body.status === 'scheduled' ? undefined : (r.body as Post);
      },
      { timeoutMs: 15_000, what: `post ${id} to leave scheduled` },
    );
  const fault = (platform: string, count: number) =>
    sandbox('POST', '/faults', { platform, mode: 'error', code: 100, count });
  const analytics = (query = '') =>
    call(`/api/v1/analytics?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}${query}`, account.apiKey);

  /** The figures the sandbox's insights endpoints report for what this account published. */
  async function platformFigures(): Promise<
    { platform: string; id: string; views: number; likes: number; comments: number; shares: number | null }[]
  > {
    const handles = new Set(account.profiles.map((p) => p.handle));
    const published = [
      ...(await sandbox('GET', '/published?platform=threads')),
      ...(await sandbox('GET', '/published?platform=facebook')),
    ].filter((p: { handle: string }) => handles.has(p.handle));
    const figures = [
      ...(await sandbox('GET', '/insights?platform=threads')),
      ...(await sandbox('GET', '/insights?platform=facebook')),
    ];
    return published.map((p: { id: string }) => figures.find((f: { id: string }) => f.id === p.id));
  }

  beforeAll(async () => {
    from = new Date(Date.now() - 60_000).toISOString();
    account = await ctx.system.seedAccount({ platforms: ['threads', 'facebook'] });
    threads = account.profiles.find((p) => p.platform === 'threads')!.id;
    facebook = account.profiles.find((p) => p.platform === 'facebook')!.id;

    await fault('facebook', 2);
    await Promise.all(
      [create('facebook', 'launch'), create('facebook', 'tips')].map(async (id) =>
        expect((await settled(await id)).status).toBe('failed'),
      ),
    );
    await fault('threads', 1);
    expect((await settled(await create('threads', 'tips'))).status).toBe('failed');
    const live = await Promise.all([
      create('threads', 'launch'),
      create('threads', 'launch'),
      create('threads', 'tips'),
      create('facebook', 'launch'),
    ]);
    for (const id of live) expect((await settled(id)).status).toBe('posted');
    await create('threads', 'launch', inMinutes(60));
    const cancelled = await create('facebook', 'tips', inMinutes(90));
    expect((await call(`/api/v1/posts/${cancelled}`, account.apiKey, { method: 'DELETE' })).body.status).toBe(
      'cancelled',
    );
    // Outside the range, and a draft inside it: neither counts.
    await create('threads', 'launch', inMinutes(180));
    expect(
      (
        await call('/api/v1/posts/drafts', account.apiKey, {
          method: 'POST',
          body: { platforms: ['threads'], caption: 'a draft', category: 'launch', scheduledTime: inMinutes(30) },
        })
      ).status,
    ).toBe(201);
    to = inMinutes(120);
    posts = (
      await call(
        `/api/v1/posts?limit=100&status=scheduled,posted,failed,cancelled&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
        account.apiKey,
      )
    ).body.data;
    expect(posts).toHaveLength(9);
    // Every published post has had its first collection.
    await waitFor(async () => ((await analytics()).body.totals.engagement.posts === 4 ? true : undefined), {
      timeoutMs: 10_000,
      what: 'engagement of the 4 published posts',
    });
  });

  test('when posts were published, failed, are waiting or were cancelled, then the totals count each and the failure reasons as the posts read', async () => {
    const { status, body } = await analytics();

    expect(status).toBe(200);
    expect(body).toMatchObject({ from, to, groupBy: null, groups: [] });
    const failed = posts.filter((p) => p.status === 'failed');
    const reasons = [...new Set(failed.map((p) => p.failedReason!))]
      .map((reason) => ({ reason, count: failed.filter((p) => p.failedReason === reason).length }))
      .sort((a, b) => b.count - a.count);
    expect(reasons.map((r) => r.count)).toEqual([2, 1]);
    expect(body.totals).toMatchObject({
      scheduled: 8,
      posted: 4,
      failed: 3,
      pending: 1,
      cancelled: 1,
      successRate: 0.5714,
      topFailureReasons: reasons,
    });

    const { dispatched, medianMs, p95Ms } = body.totals.dispatchLag;
    const longest = Math.max(
      ...posts
        .filter((p) => p.status === 'posted' || p.status === 'failed')
        .map((p) => Date.parse(p.updatedAt) - Date.parse(p.scheduledTime)),
    );
    expect(dispatched).toBe(7);
    expect(medianMs).toBeGreaterThanOrEqual(0);
    expect(p95Ms).toBeGreaterThanOrEqual(medianMs);
    expect(p95Ms).toBeLessThanOrEqual(longest + 1);
  });

  test('when the platforms report engagement, then analytics answers the sum of their latest figures with when they were collected', async () => {
    const figures = await platformFigures();
    expect(figures).toHaveLength(4);
    const { body } = await analytics();
    expect(body.totals.engagement).toEqual({
      posts: 4,
      views: sum(figures.map((f) => f.views)),
      likes: sum(figures.map((f) => f.likes)),
      comments: sum(figures.map((f) => f.comments)),
      shares: sum(figures.map((f) => f.shares ?? 0)),
      lastCollectedAt: expect.any(String),
    });
    const lastPublished = Math.max(...posts.filter((p) => p.status === 'posted').map((p) => Date.parse(p.updatedAt)));
    expect(Date.parse(body.totals.engagement.lastCollectedAt)).toBeGreaterThan(lastPublished);
  });

  test('when a platform reports new figures, then a later collection replaces the earlier ones', async () => {
    const [first] = await platformFigures();
    const before = (await analytics()).body.totals.engagement;
    await sandbox('POST', '/insights', {
      platform: first.platform,
      id: first.id,
      views: first.views + 1000,
      likes: first.likes + 10,
    });

    const after = await waitFor(
      async () => {
        const e = (await analytics()).body.totals.engagement;
        return e.views === before.views + 1000 ? e : undefined;
      },
      { timeoutMs: 20_000, what: 'the next collection' },
    );

    expect(after).toMatchObject({
      posts: 4,
      views: before.views + 1000,
      likes: before.likes + 10,
      comments: before.comments,
      shares: before.shares,
    });
    expect(Date.parse(after.lastCollectedAt)).toBeGreaterThan(Date.parse(before.lastCollectedAt));
  });

  test('when grouped by platform, profile or category, then each group has its own figures and together they make the totals', async () => {
    const byPlatform = (await analytics('&groupBy=platform')).body;
    expect(byPlatform.groupBy).toBe('platform');
    expect(byPlatform.groups.map((g: any) => [g.key, g.scheduled, g.posted, g.failed, g.pending, g.cancelled])).toEqual(
      [
        ['facebook', 3, 1, 2, 0, 1],
        ['threads', 5, 3, 1, 1, 0],
      ],
    );
    const facebookFigures = (await platformFigures()).filter((f) => f.platform === 'facebook');
    expect(byPlatform.groups[0].engagement).toMatchObject({
      posts: 1,
      views: facebookFigures[0].views,
      shares: facebookFigures[0].shares,
    });
    expect(byPlatform.groups[0].successRate).toBe(0.3333);
    expect(byPlatform.groups[0].topFailureReasons).toEqual([{ reason: expect.any(String), count: 2 }]);

    const byProfile = (await analytics('&groupBy=profile')).body;
    expect(Object.fromEntries(byProfile.groups.map((g: any) => [g.key, g.scheduled]))).toEqual({
      [facebook]: 3,
      [threads]: 5,
    });

    const byCategory = (await analytics('&groupBy=category')).body;
    expect(
      byCategory.groups.map((g: any) => [
        g.key,
        g.scheduled,
        g.posted,
        g.failed,
        g.pending,
        g.cancelled,
        g.engagement.posts,
      ]),
    ).toEqual([
      ['launch', 5, 3, 1, 1, 0, 3],
      ['tips', 3, 1, 2, 0, 1, 1],
    ]);
    expect(sum(byCategory.groups.map((g: any) => g.engagement.views))).toBe(byCategory.totals.engagement.views);
  });

  test('when grouped by day, then the keys are the UTC dates of scheduledTime', async () => {
    const { body } = await analytics('&groupBy=day');
    const days = [...new Set(posts.map((p) => p.scheduledTime.slice(0, 10)))].sort();
    expect(body.groups.map((g: any) => g.key)).toEqual(days);
    expect(sum(body.groups.map((g: any) => g.scheduled))).toBe(8);
    expect(sum(body.groups.map((g: any) => g.cancelled))).toBe(1);
  });

  test('when another account reads analytics over the same range, then it sees none of these posts', async () => {
    const other = await ctx.system.seedAccount({ platforms: ['threads'] });
    const { body } = await call(
      `/api/v1/analytics?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
      other.apiKey,
    );
    expect(body.totals).toMatchObject({
      scheduled: 0,
      posted: 0,
      failed: 0,
      successRate: null,
      dispatchLag: { dispatched: 0, medianMs: null, p95Ms: null },
      topFailureReasons: [],
    });
    expect(body.totals.engagement).toEqual({
      posts: 0,
      views: null,
      likes: null,
      comments: null,
      shares: null,
      lastCollectedAt: null,
    });
  });

  test('when no range is given, then it is the 30 days before now', async () => {
    const before = Date.now();
    const { body } = await call('/api/v1/analytics', account.apiKey);
    expect(Date.parse(body.to)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(body.to) - Date.parse(body.from)).toBe(30 * 86_400_000);
    // Published and failed posts were due just now; the scheduled and cancelled ones are still ahead.
    expect(body.totals).toMatchObject({ posted: 4, failed: 3, pending: 0, cancelled: 0 });
  });
});

describe('analytics refuses a bad range', () => {
  test.each([
    ['from=yesterday', /from must be an ISO 8601 datetime/],
    ['to=2026-01-01T10:00:00', /to must be an ISO 8601 datetime/],
    ['from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', /from must be before to/],
    ['from=2024-01-01T00:00:00Z&to=2026-01-01T00:00:00Z', /at most 366 days/],
    ['groupBy=week', /groupBy must be one of platform, profile, category, day/],
  ])('when the query is %s, then 400 validation_error naming the problem', async (query, message) => {
    const account = await ctx.system.seedAccount({ platforms: [] });
    const { status, body } = await call(`/api/v1/analytics?${query}`, account.apiKey);
    expect([status, body.code]).toEqual([400, 'validation_error']);
    expect(body.error).toMatch(message);
  });
});
