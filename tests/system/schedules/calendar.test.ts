import { CALENDAR_POSTS_MAX, Rpc, SCOPES } from '@postbus/contracts';
import { Client } from 'pg';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { callTool } from '../support/mcp-client';
import { api } from '../support/posts-api';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let other: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('posts_calendar');
  system = await startSystem(env, { RATE_LIMIT_PER_MINUTE: '0' });
  account = await system.seedAccount({ platforms: ['threads', 'facebook'], plan: 'pro' });
  other = await system.seedAccount({ platforms: ['threads'], plan: 'pro' });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

type CalendarDay = {
  date: string;
  posts: {
    id: string;
    platform: string;
    profileId: string;
    status: string;
    scheduledTime: string;
    local: string;
    caption: string;
  }[];
};

const profileOf = (platform: string) => account.profiles.find((p) => p.platform === platform)!.id;
const calendar = (query: string, key = account.apiKey) => api(system, `/api/v1/calendar?${query}`, { key });
const schedule = async (scheduledTime: string, caption: string, platform = 'threads', key = account.apiKey) => {
  const r = await api(system, '/api/v1/posts', {
    method: 'POST',
    key,
    body: { platforms: [platform], caption, scheduledTime },
  });
  expect(r.status).toBe(201);
  return r.body.postIds[0] as string;
};
/** Each day as `date: caption@local, …`, to compare the grouping at a glance. */
const outline = (days: CalendarDay[]) =>
  days.map((d) => `${d.date}: ${d.posts.map((p) => `${p.caption}@${p.local}`).join(', ')}`);
const expectCode = (r: { status: number; body: any }, status: number, code: string) => {
  expect({ status: r.status, code: r.body?.code }).toEqual({ status, code });
  expect(r.body.error).toEqual(expect.any(String));
};

describe('the calendar', () => {
  test('when the clocks fall back in Berlin, then that local day is 25 hours long and every post lands on its local day', async () => {
    await schedule('2027-10-30T21:59:00Z', 'fall sat late'); // 23:59 CEST on the 30th
    await schedule('2027-10-30T22:30:00Z', 'fall sun early'); // 00:30 CEST on the 31st, still the 30th in UTC
    await schedule('2027-10-31T22:30:00Z', 'fall sun late'); // 23:30 CET: hour 25 of the 31st
    await schedule('2027-10-31T23:00:00Z', 'fall mon midnight'); // 00:00 CET on 1 November
    const r = await calendar('from=2027-10-30&to=2027-11-01&timezone=Europe/Berlin');
    expect(r.status).toBe(200);
    expect(r.body.timezone).toBe('Europe/Berlin');
    expect(r.body.truncated).toBeUndefined();
    expect(outline(r.body.days)).toEqual([
      '2027-10-30: fall sat late@23:59',
      '2027-10-31: fall sun early@00:30, fall sun late@23:30',
      '2027-11-01: fall mon midnight@00:00',
    ]);
    const single = await calendar('from=2027-10-31&to=2027-10-31&timezone=Europe/Berlin');
    expect(outline(single.body.days)).toEqual(['2027-10-31: fall sun early@00:30, fall sun late@23:30']);
  });

  test('when the clocks spring forward in Berlin, then that local day is 23 hours long and the next starts at its local midnight', async () => {
    await schedule('2027-03-28T21:59:00Z', 'spring sun late'); // 23:59 CEST on the 28th
    await schedule('2027-03-28T22:00:00Z', 'spring mon midnight'); // 00:00 CEST on the 29th
    const r = await calendar('from=2027-03-28&to=2027-03-29&timezone=Europe/Berlin');
    expect(outline(r.body.days)).toEqual([
      '2027-03-28: spring sun late@23:59',
      '2027-03-29: spring mon midnight@00:00',
    ]);
    const single = await calendar('from=2027-03-28&to=2027-03-28&timezone=Europe/Berlin');
    expect(outline(single.body.days)).toEqual(['2027-03-28: spring sun late@23:59']);
  });

  test('when asked in Kathmandu (+05:45), then a day runs from 18:15 UTC to 18:15 UTC the next day', async () => {
    for (const [at, caption] of [
      ['2027-06-14T18:14:00Z', 'ktm before'],
      ['2027-06-14T18:15:00Z', 'ktm first'],
      ['2027-06-15T18:14:00Z', 'ktm last'],
      ['2027-06-15T18:15:00Z', 'ktm after'],
    ])
      await schedule(at, caption);
    const r = await calendar('from=2027-06-15&to=2027-06-15&timezone=Asia/Kathmandu');
    expect(r.status).toBe(200);
    expect(outline(r.body.days)).toEqual(['2027-06-15: ktm first@00:00, ktm last@23:59']);
    expect(r.body.days[0].posts[0]).toEqual({
      id: expect.any(String),
      platform: 'threads',
      profileId: profileOf('threads'),
      status: 'scheduled',
      scheduledTime: '2027-06-14T18:15:00.000Z',
      local: '00:00',
      caption: 'ktm first',
    });
    const utc = await calendar('from=2027-06-14&to=2027-06-15');
    expect(utc.body.timezone).toBe('UTC');
    expect(outline(utc.body.days)).toEqual([
      '2027-06-14: ktm before@18:14, ktm first@18:15',
      '2027-06-15: ktm last@18:14, ktm after@18:15',
    ]);
  });

  test('when days have no posts, then they are listed empty, in order, and a long caption is cut to 80 characters', async () => {
    await schedule('2027-08-03T12:00:00Z', `long ${'x'.repeat(200)}`);
    const r = await calendar('from=2027-08-01&to=2027-08-04&timezone=UTC');
    expect(r.body.days.map((d: CalendarDay) => [d.date, d.posts.length])).toEqual([
      ['2027-08-01', 0],
      ['2027-08-02', 0],
      ['2027-08-03', 1],
      ['2027-08-04', 0],
    ]);
    expect(r.body.days[2].posts[0].caption).toBe(`long ${'x'.repeat(75)}`);
  });

  test('when a key is limited to some profiles or another account asks, then it sees only the posts it may see', async () => {
    const threads = await schedule('2027-09-10T09:00:00Z', 'profiles threads');
    const facebook = await schedule('2027-09-10T10:00:00Z', 'profiles facebook', 'facebook');
    const ids = (r: { body: { days: CalendarDay[] } }) => r.body.days.flatMap((d) => d.posts.map((p) => p.id));
    const query = 'from=2027-09-10&to=2027-09-10';
    expect(ids(await calendar(query))).toEqual([threads, facebook]);
    expect(ids(await calendar(`${query}&profileId=${profileOf('facebook')}`))).toEqual([facebook]);
    expect(ids(await calendar(query, other.apiKey))).toEqual([]);
    const { key: limited } = await system.bus.rpc.call(Rpc.authIssueKey, {
      accountId: account.accountId,
      userId: account.userId,
      name: 'threads only',
      scopes: [...SCOPES],
      profileIds: [profileOf('threads')],
    });
    expect(ids(await calendar(query, limited))).toEqual([threads]);
    expectCode(await calendar(`${query}&profileId=${profileOf('facebook')}`, limited), 403, 'profile_scope_denied');
    const { key: writer } = await system.bus.rpc.call(Rpc.authIssueKey, {
      accountId: account.accountId,
      userId: account.userId,
      name: 'writer',
      scopes: ['post:write'],
      profileIds: 'all',
    });
    expectCode(await calendar(query, writer), 403, 'insufficient_scope');
  });

  test('when a field is wrong, then 400 validation_error naming it', async () => {
    for (const [query, field] of [
      ['from=2027-01-01&to=2027-01-02&timezone=Mars/Olympus', 'timezone'],
      ['from=2027-02-30&to=2027-03-02', 'from'],
      ['to=2027-03-02', 'from'],
      ['from=2027-03-01&to=03/02/2027', 'to'],
      ['from=2027-03-01&to=2027-03-01T00:00', 'to'],
      ['from=2027-03-02&to=2027-03-01', 'to'],
      ['from=2027-01-01&to=2027-03-04', 'to'],
      ['from=2027-01-01&from=2027-01-02&to=2027-01-03', 'from'],
    ] as const) {
      const r = await calendar(query);
      expectCode(r, 400, 'validation_error');
      expect(r.body.error).toContain(field);
    }
    const widest = await calendar('from=2027-01-01&to=2027-03-03&timezone=Europe/Berlin');
    expect(widest.status).toBe(200);
    expect(widest.body.days).toHaveLength(62);
  });
});

describe('a busy range', () => {
  test('when more posts fall in the range than one answer carries, then the earliest are listed and truncated is true; a permalink is shown', async () => {
    const first = await schedule('2027-12-05T08:00:00Z', 'busy first');
    const db = new Client({ connectionString: env.databaseUrl });
    await db.connect();
    try {
      await db.query(`UPDATE posts.posts SET permalink = 'https://threads.example/p/1' WHERE id = $1`, [first]);
      // Copies of the post a second apart, straight into the store: more than the API would take in a test.
      await db.query(
        `INSERT INTO posts.posts (id, account_id, request_id, profile_id, platform, status, caption, media_urls, scheduled_time)
         SELECT id || '_' || g, account_id, request_id, profile_id, platform, status, 'busy copy', media_urls, scheduled_time + g * interval '1 second'
           FROM posts.posts, generate_series(1, $2::int) g WHERE id = $1`,
        [first, CALENDAR_POSTS_MAX],
      );
    } finally {
      await db.end();
    }
    const r = await calendar('from=2027-12-05&to=2027-12-05');
    expect(r.status).toBe(200);
    expect(r.body.truncated).toBe(true);
    const posts = r.body.days[0].posts;
    expect(posts).toHaveLength(CALENDAR_POSTS_MAX);
    expect(posts[0]).toMatchObject({ id: first, permalink: 'https://threads.example/p/1' });
    expect(posts[1].permalink).toBeUndefined();
    expect(posts[posts.length - 1].scheduledTime).toBe(
      new Date(Date.parse('2027-12-05T08:00:00Z') + (CALENDAR_POSTS_MAX - 1) * 1000).toISOString(),
    );
  });
});

describe('the svc_get_calendar tool', () => {
  test('when called with the same range, then it answers what REST answers, and refuses what REST refuses', async () => {
    await schedule('2027-10-31T00:30:00Z', 'tool post');
    const args = { from: '2027-10-30', to: '2027-11-01', timezone: 'Europe/Berlin' };
    const rest = await calendar(new URLSearchParams(args).toString());
    expect(rest.body.days[1].posts.map((p: { caption: string }) => p.caption)).toContain('tool post');
    const t = await callTool(system.baseUrl, 'svc_get_calendar', args, account.apiKey);
    expect(t.error).toBeUndefined();
    expect(t.message.result.structuredContent).toEqual(rest.body);
    const bad = await callTool(
      system.baseUrl,
      'svc_get_calendar',
      { ...args, timezone: 'Nowhere/Land' },
      account.apiKey,
    );
    expect(bad.error?.code).toBe('validation_error');
  });
});
