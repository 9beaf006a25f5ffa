import { Rpc, SCOPES } from '@postbus/contracts';
import { Client } from 'pg';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { api } from '../support/posts-api';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let other: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('posts_schedules');
  system = await startSystem(env, { RATE_LIMIT_PER_MINUTE: '0' });
  account = await system.seedAccount({ platforms: ['threads', 'facebook'], plan: 'pro' });
  other = await system.seedAccount({ platforms: ['threads'], plan: 'pro' });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const profileOf = (platform: string) => account.profiles.find((p) => p.platform === platform)!.id;
const call = (method: string, path: string, body?: unknown, key = account.apiKey) =>
  api(system, path, { method, key, body });
const weekly = (over: Record<string, unknown> = {}) => ({
  name: 'weekdays',
  timezone: 'Europe/Berlin',
  slots: [{ day: 'sun', time: '02:30' }],
  profileIds: [profileOf('threads')],
  ...over,
});
const newSchedule = async (over: Record<string, unknown> = {}) => {
  const r = await call('POST', '/api/v1/schedules', weekly(over));
  expect(r.status).toBe(201);
  return r.body.id as string;
};
const preview = async (id: string, query: string) =>
  (await call('GET', `/api/v1/schedules/${id}/slots?${query}`)).body.data as {
    scheduledTime: string;
    local: string;
    profiles: { profileId: string; taken: number; free: boolean }[];
  }[];
const expectCode = (r: { status: number; body: any }, status: number, code: string) => {
  expect({ status: r.status, code: r.body?.code }).toEqual({ status, code });
  expect(r.body.error).toEqual(expect.any(String));
};

describe('posting schedules', () => {
  test('when a schedule is created, read, listed, changed and deleted, then each answer is the schedule and it is gone after', async () => {
    const created = await call('POST', '/api/v1/schedules', weekly());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^sch_/),
      name: 'weekdays',
      timezone: 'Europe/Berlin',
      postsPerSlot: 1,
      profileIds: [profileOf('threads')],
    });
    const id = created.body.id;
    expect((await call('GET', `/api/v1/schedules/${id}`)).body).toEqual(created.body);
    expect((await call('GET', '/api/v1/schedules')).body.data.map((s: { id: string }) => s.id)).toContain(id);
    const changed = await call('PATCH', `/api/v1/schedules/${id}`, { name: 'mornings', postsPerSlot: 2 });
    expect(changed.body).toMatchObject({ id, name: 'mornings', postsPerSlot: 2, timezone: 'Europe/Berlin' });
    expect((await call('DELETE', `/api/v1/schedules/${id}`)).status).toBe(200);
    expectCode(await call('GET', `/api/v1/schedules/${id}`), 404, 'schedule_not_found');
  });

  test('when a create repeats its Idempotency-Key, then the first schedule answers; the same key with another body is idempotency_conflict', async () => {
    const key = `sched-${Date.now()}`;
    const headers = { 'idempotency-key': key };
    const first = await api(system, '/api/v1/schedules', {
      method: 'POST',
      key: account.apiKey,
      body: weekly({ name: 'once' }),
      headers,
    });
    const again = await api(system, '/api/v1/schedules', {
      method: 'POST',
      key: account.apiKey,
      body: weekly({ name: 'once' }),
      headers,
    });
    expect(first.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expectCode(
      await api(system, '/api/v1/schedules', {
        method: 'POST',
        key: account.apiKey,
        body: weekly({ name: 'other' }),
        headers,
      }),
      409,
      'idempotency_conflict',
    );
    const named = (await call('GET', '/api/v1/schedules')).body.data.filter((s: { name: string }) => s.name === 'once');
    expect(named).toHaveLength(1);
  });

  test('when a field is wrong, then 400 validation_error naming it, and nothing is stored', async () => {
    const before = (await call('GET', '/api/v1/schedules')).body.data.length;
    for (const [body, field] of [
      [weekly({ timezone: 'Mars/Olympus' }), 'timezone'],
      [weekly({ slots: [{ day: 'sun', time: '24:00' }] }), 'time'],
      [weekly({ slots: [{ day: 'someday', time: '10:00' }] }), 'day'],
      [weekly({ slots: [] }), 'slots'],
      [weekly({ postsPerSlot: 0 }), 'postsPerSlot'],
      [weekly({ extra: true }), 'extra'],
    ] as const) {
      const r = await call('POST', '/api/v1/schedules', body);
      expectCode(r, 400, 'validation_error');
      expect(r.body.error).toContain(field);
    }
    expectCode(
      await call('POST', '/api/v1/schedules', weekly({ profileIds: ['prf_missing'] })),
      400,
      'invalid_profile_ids',
    );
    expect((await call('GET', '/api/v1/schedules')).body.data.length).toBe(before);
  });

  test('when another account or a key limited to other profiles asks, then the schedule does not exist for it', async () => {
    const id = await newSchedule({ profileIds: [profileOf('threads'), profileOf('facebook')] });
    expectCode(await call('GET', `/api/v1/schedules/${id}`, undefined, other.apiKey), 404, 'schedule_not_found');
    expectCode(await call('PATCH', `/api/v1/schedules/${id}`, { name: 'x' }, other.apiKey), 404, 'schedule_not_found');
    const { key: limited } = await system.bus.rpc.call(Rpc.authIssueKey, {
      accountId: account.accountId,
      userId: account.userId,
      name: 'threads only',
      scopes: [...SCOPES],
      profileIds: [profileOf('threads')],
    });
    expectCode(await call('GET', `/api/v1/schedules/${id}`, undefined, limited), 404, 'schedule_not_found');
    expect(
      (await call('GET', '/api/v1/schedules', undefined, limited)).body.data.map((s: { id: string }) => s.id),
    ).not.toContain(id);
    expectCode(
      await call('POST', '/api/v1/schedules', weekly({ profileIds: [profileOf('facebook')] }), limited),
      403,
      'profile_scope_denied',
    );
    const { key: reader } = await system.bus.rpc.call(Rpc.authIssueKey, {
      accountId: account.accountId,
      userId: account.userId,
      name: 'reader',
      scopes: ['post:read'],
      profileIds: 'all',
    });
    expectCode(await call('POST', '/api/v1/schedules', weekly(), reader), 403, 'insufficient_scope');
    expect((await call('GET', `/api/v1/schedules/${id}`, undefined, reader)).status).toBe(200);
  });

  test('when slots fall in a clock change, then a skipped one fires at the first valid minute after and a repeated one once, at its first occurrence', async () => {
    const berlin = await newSchedule({ slots: [{ day: 'sun', time: '02:30' }] });
    expect((await preview(berlin, 'from=2027-03-22T00:00:00Z&count=2')).map((s) => [s.scheduledTime, s.local])).toEqual(
      [
        ['2027-03-28T01:00:00.000Z', '2027-03-28T03:00'],
        ['2027-04-04T00:30:00.000Z', '2027-04-04T02:30'],
      ],
    );
    expect((await preview(berlin, 'from=2027-10-25T00:00:00Z&count=2')).map((s) => s.scheduledTime)).toEqual([
      '2027-10-31T00:30:00.000Z',
      '2027-11-07T01:30:00.000Z',
    ]);

    const newYork = await newSchedule({
      timezone: 'America/New_York',
      slots: [
        { day: 'sun', time: '02:30' },
        { day: 'sun', time: '01:30' },
      ],
    });
    expect((await preview(newYork, 'from=2027-03-13T00:00:00Z&count=2')).map((s) => s.scheduledTime)).toEqual([
      '2027-03-14T06:30:00.000Z',
      '2027-03-14T07:00:00.000Z',
    ]);
    expect((await preview(newYork, 'from=2027-11-06T00:00:00Z&count=2')).map((s) => s.scheduledTime)).toEqual([
      '2027-11-07T05:30:00.000Z',
      '2027-11-07T07:30:00.000Z',
    ]);

    const lordHowe = await newSchedule({ timezone: 'Australia/Lord_Howe', slots: [{ day: 'sun', time: '02:15' }] });
    expect((await preview(lordHowe, 'from=2027-09-30T00:00:00Z&count=1'))[0]).toMatchObject({
      scheduledTime: '2027-10-02T15:30:00.000Z',
      local: '2027-10-03T02:30',
    });

    const kathmandu = await newSchedule({ timezone: 'Asia/Kathmandu', slots: [{ day: 'mon', time: '09:00' }] });
    expect((await preview(kathmandu, 'from=2027-05-30T00:00:00Z&count=1'))[0]).toMatchObject({
      scheduledTime: '2027-05-31T03:15:00.000Z',
      local: '2027-05-31T09:00',
    });
  });

  test('when the preview query is wrong, then 400 validation_error naming the parameter', async () => {
    const id = await newSchedule();
    for (const [query, name] of [
      ['count=0', 'count'],
      ['count=101', 'count'],
      ['count=abc', 'count'],
      ['from=tomorrow', 'from'],
    ]) {
      const r = await call('GET', `/api/v1/schedules/${id}/slots?${query}`);
      expectCode(r, 400, 'validation_error');
      expect(r.body.error).toContain(name);
    }
  });
});

describe('queueing posts into a schedule', () => {
  const queued = (schedule: string, extra: Record<string, unknown> = {}) =>
    call('POST', '/api/v1/posts', { platforms: ['threads'], caption: 'queued', schedule, ...extra });

  test('when posts are queued, then each takes the next free slot of its profile, the preview shows them taken, and a cancelled or moved one frees its slot', async () => {
    const id = await newSchedule({
      timezone: 'Asia/Kathmandu',
      slots: [
        { day: 'mon', time: '09:00' },
        { day: 'thu', time: '18:45' },
      ],
    });
    const slots = (await preview(id, 'count=3')).map((s) => s.scheduledTime);

    const first = await queued(id);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      scheduledTime: slots[0],
      slots: [{ postId: first.body.postIds[0], profileId: profileOf('threads'), scheduledTime: slots[0] }],
    });
    const second = await queued(id);
    expect(second.body.scheduledTime).toBe(slots[1]);
    expect((await call('GET', `/api/v1/posts/${second.body.postIds[0]}`)).body.scheduledTime).toBe(slots[1]);
    expect((await preview(id, 'count=3')).map((s) => s.profiles[0].free)).toEqual([false, false, true]);

    expect((await call('DELETE', `/api/v1/posts/${first.body.postIds[0]}`)).status).toBe(200);
    expect((await preview(id, 'count=3')).map((s) => s.profiles[0].free)).toEqual([true, false, true]);
    expect((await queued(id)).body.scheduledTime).toBe(slots[0]);

    // Moving a queued post to another time frees its slot too.
    expect(
      (await call('PATCH', `/api/v1/posts/${second.body.postIds[0]}`, { scheduledTime: '2031-01-01T10:00:00Z' }))
        .status,
    ).toBe(200);
    expect((await preview(id, 'count=3')).map((s) => s.profiles[0].free)).toEqual([false, true, true]);
  });

  test('when several creates queue at once, then no slot takes more than postsPerSlot posts', async () => {
    const id = await newSchedule({
      timezone: 'America/New_York',
      slots: [
        { day: 'tue', time: '10:00' },
        { day: 'fri', time: '16:30' },
      ],
      postsPerSlot: 2,
    });
    const answers = await Promise.all(Array.from({ length: 6 }, () => queued(id)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
    const perSlot = new Map<string, number>();
    for (const a of answers) perSlot.set(a.body.scheduledTime, (perSlot.get(a.body.scheduledTime) ?? 0) + 1);
    expect([...perSlot.values()]).toEqual([2, 2, 2]);
    expect((await preview(id, 'count=4')).map((s) => s.profiles[0].taken)).toEqual([2, 2, 2, 0]);
  });

  test('when a queued create is not possible, then it is refused with its own code and nothing is stored', async () => {
    const id = await newSchedule();
    const before = (await preview(id, 'count=1'))[0].profiles[0].taken;
    const both = await queued(id, { scheduledTime: '2030-01-01T10:00:00Z' });
    expectCode(both, 400, 'validation_error');
    expect(both.body.error).toMatch(/schedule/);
    expectCode(await queued('sch_missing'), 404, 'schedule_not_found');
    expectCode(
      await call('POST', '/api/v1/posts', { platforms: ['facebook'], caption: 'x', schedule: id }),
      409,
      'schedule_not_applicable',
    );
    expectCode(
      await call('POST', '/api/v1/posts/drafts', { platforms: ['threads'], caption: 'x', schedule: id }),
      400,
      'validation_error',
    );
    expect((await preview(id, 'count=1'))[0].profiles[0].taken).toBe(before);
  });

  test('when /posts/schedule is given a schedule instead of a time, then it queues', async () => {
    const id = await newSchedule();
    const r = await call('POST', '/api/v1/posts/schedule', { platforms: ['threads'], caption: 'queued', schedule: id });
    expect(r.status).toBe(201);
    expect(r.body.scheduledTime).toBe((await preview(id, 'count=1'))[0].scheduledTime);
  });
});

describe('default schedules and "scheduledTime": "next"', () => {
  const next = (platforms: string[], key = account.apiKey) =>
    call('POST', '/api/v1/posts', { platforms, caption: 'next up', scheduledTime: 'next' }, key);

  test('when a profile has a default schedule, then "next" takes its next free slot there, one profile per its own default', async () => {
    const threadsDefault = await newSchedule({
      timezone: 'Australia/Lord_Howe',
      slots: [{ day: 'wed', time: '08:00' }],
      defaultFor: [profileOf('threads')],
    });
    const facebookDefault = await newSchedule({
      slots: [{ day: 'sat', time: '12:15' }],
      profileIds: [profileOf('facebook')],
      defaultFor: [profileOf('facebook')],
    });
    expect((await call('GET', `/api/v1/schedules/${threadsDefault}`)).body.defaultFor).toEqual([profileOf('threads')]);
    const threadsSlots = (await preview(threadsDefault, 'count=2')).map((s) => s.scheduledTime);
    const facebookSlot = (await preview(facebookDefault, 'count=1'))[0].scheduledTime;

    const first = await next(['threads', 'facebook']);
    expect(first.status).toBe(201);
    const byProfile = Object.fromEntries(
      first.body.slots.map((s: { profileId: string; scheduledTime: string }) => [s.profileId, s.scheduledTime]),
    );
    expect(byProfile).toEqual({ [profileOf('threads')]: threadsSlots[0], [profileOf('facebook')]: facebookSlot });
    expect((await next(['threads'])).body.scheduledTime).toBe(threadsSlots[1]);
    // Leaves facebook without a default for the test of a taken default.
    expect((await call('PATCH', `/api/v1/schedules/${facebookDefault}`, { defaultFor: [] })).status).toBe(200);
  });

  test('when a profile has no default schedule, then "next" is refused with schedule_not_applicable saying to set one, and nothing is stored', async () => {
    const r = await next(['threads'], other.apiKey);
    expectCode(r, 409, 'schedule_not_applicable');
    expect(r.body.error).toMatch(/defaultFor/);
    expect((await call('GET', '/api/v1/posts?limit=5', undefined, other.apiKey)).body.data).toEqual([]);
    expectCode(
      await call('POST', '/api/v1/posts/drafts', { platforms: ['threads'], caption: 'x', scheduledTime: 'next' }),
      400,
      'validation_error',
    );
  });

  test('when a second schedule names a profile that already has a default, then 409 schedule_default_taken and neither schedule changes', async () => {
    const profile = profileOf('facebook');
    const first = await newSchedule({ profileIds: [profile], defaultFor: [profile] });
    expectCode(
      await call('POST', '/api/v1/schedules', weekly({ name: 'second', profileIds: [profile], defaultFor: [profile] })),
      409,
      'schedule_default_taken',
    );
    expect(
      (await call('GET', '/api/v1/schedules')).body.data.filter((s: { name: string }) => s.name === 'second'),
    ).toEqual([]);
    const second = await newSchedule({ name: 'third', profileIds: [profile] });
    expectCode(
      await call('PATCH', `/api/v1/schedules/${second}`, { defaultFor: [profile] }),
      409,
      'schedule_default_taken',
    );
    expect((await call('GET', `/api/v1/schedules/${second}`)).body.defaultFor).toEqual([]);
    expectCode(
      await call('PATCH', `/api/v1/schedules/${second}`, { defaultFor: [profileOf('threads')] }),
      400,
      'validation_error',
    );

    // Handing the default over: cleared on the first, then taken by the second.
    expect((await call('PATCH', `/api/v1/schedules/${first}`, { defaultFor: [] })).body.defaultFor).toEqual([]);
    expect((await call('PATCH', `/api/v1/schedules/${second}`, { defaultFor: [profile] })).body.defaultFor).toEqual([
      profile,
    ]);
    expect((await next(['facebook'])).body.scheduledTime).toBe((await preview(second, 'count=1'))[0].scheduledTime);
  });
});

describe('reshuffling a queue when a queued post leaves its slot', () => {
  const slotsOfWeek = [
    { day: 'mon', time: '09:00' },
    { day: 'wed', time: '12:00' },
    { day: 'fri', time: '18:00' },
    { day: 'sat', time: '08:15' },
  ];
  /** A fresh schedule with `n` posts queued into it: their ids and the slots they took, in order. */
  const queueOf = async (n: number) => {
    const id = await newSchedule({ timezone: 'Europe/Lisbon', slots: slotsOfWeek });
    const posts: string[] = [];
    for (let i = 0; i < n; i++) {
      const r = await call('POST', '/api/v1/posts', { platforms: ['threads'], caption: `queued ${i}`, schedule: id });
      expect(r.status).toBe(201);
      posts.push(r.body.postIds[0]);
    }
    const slots = (await preview(id, `count=${n + 1}`)).map((s) => s.scheduledTime);
    return { id, posts, slots };
  };
  const timeOf = async (postId: string) => (await call('GET', `/api/v1/posts/${postId}`)).body.scheduledTime as string;
  const inDb = async (sql: string, params: unknown[]) => {
    const db = new Client({ connectionString: env.databaseUrl });
    await db.connect();
    try {
      await db.query(sql, params);
    } finally {
      await db.end();
    }
  };

  test('when the first of three queued posts is cancelled with reshuffle, then the other two move up in order and the last slot is free', async () => {
    const {
      id,
      posts: [a, b, c],
      slots,
    } = await queueOf(3);
    const r = await call('DELETE', `/api/v1/posts/${a}?reshuffle=true`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: a, status: 'cancelled', scheduledTime: slots[0] });
    expect(r.body.reshuffled).toEqual([
      { postId: b, from: slots[1], to: slots[0] },
      { postId: c, from: slots[2], to: slots[1] },
    ]);
    expect([await timeOf(b), await timeOf(c)]).toEqual([slots[0], slots[1]]);
    expect((await preview(id, 'count=4')).map((s) => s.profiles[0].taken)).toEqual([1, 1, 0, 0]);
    // The moved claims hold their new slots: the next queued post takes the slot the chain freed.
    expect(
      (await call('POST', '/api/v1/posts', { platforms: ['threads'], caption: 'after', schedule: id })).body
        .scheduledTime,
    ).toBe(slots[2]);
  });

  test('when a later queued post was dispatched or moved away, then it is stepped over and the chain continues after it', async () => {
    const {
      posts: [a, b, c, d],
      slots,
    } = await queueOf(4);
    await inDb('UPDATE posts.posts SET dispatched_at = now() WHERE id = $1', [b]);
    expect((await call('PATCH', `/api/v1/posts/${c}`, { scheduledTime: '2031-03-03T10:00:00Z' })).status).toBe(200);
    const r = await call('DELETE', `/api/v1/posts/${a}?reshuffle=true`);
    expect(r.status).toBe(200);
    expect(r.body.reshuffled).toEqual([{ postId: d, from: slots[3], to: slots[0] }]);
    expect([await timeOf(b), await timeOf(c), await timeOf(d)]).toEqual([
      slots[1],
      '2031-03-03T10:00:00.000Z',
      slots[0],
    ]);
  });

  test('when a queued post is moved to another time with reshuffle, then the later ones move up into its slot', async () => {
    const {
      posts: [a, b, c],
      slots,
    } = await queueOf(3);
    const r = await call('PATCH', `/api/v1/posts/${a}?reshuffle=true`, { scheduledTime: '2031-03-03T10:00:00Z' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: a, status: 'scheduled', scheduledTime: '2031-03-03T10:00:00.000Z' });
    expect(r.body.reshuffled).toEqual([
      { postId: b, from: slots[1], to: slots[0] },
      { postId: c, from: slots[2], to: slots[1] },
    ]);
    // A change that leaves the time alone frees nothing.
    const same = await call('PATCH', `/api/v1/posts/${b}?reshuffle=true`, { caption: 'edited' });
    expect(same.status).toBe(200);
    expect(same.body.reshuffled).toEqual([]);
    expect(await timeOf(c)).toBe(slots[1]);
  });

  test('when reshuffle is not asked for, or is false, then nothing else moves and the answer is the post alone', async () => {
    const {
      posts: [a, b, c],
      slots,
    } = await queueOf(3);
    const r = await call('DELETE', `/api/v1/posts/${a}`);
    expect(r.status).toBe(200);
    expect(r.body).not.toHaveProperty('reshuffled');
    const off = await call('DELETE', `/api/v1/posts/${b}?reshuffle=false`);
    expect(off.status).toBe(200);
    expect(off.body).not.toHaveProperty('reshuffled');
    expect(await timeOf(c)).toBe(slots[2]);
  });

  test('when reshuffle is neither true nor false, then it is refused with validation_error and nothing changes', async () => {
    const {
      posts: [a, b],
      slots,
    } = await queueOf(2);
    const r = await call('DELETE', `/api/v1/posts/${a}?reshuffle=yes`);
    expectCode(r, 400, 'validation_error');
    expect(r.body.error).toMatch(/reshuffle/);
    expectCode(
      await call('PATCH', `/api/v1/posts/${a}?reshuffle=1`, { scheduledTime: '2031-03-03T10:00:00Z' }),
      400,
      'validation_error',
    );
    expect((await call('GET', `/api/v1/posts/${a}`)).body).toMatchObject({
      status: 'scheduled',
      scheduledTime: slots[0],
    });
    expect(await timeOf(b)).toBe(slots[1]);
  });
});

describe('suggested slots', () => {
  test('when a profile has no published history, then the platform defaults come back, ready to create a schedule from', async () => {
    const r = await call(
      'GET',
      `/api/v1/schedules/suggest?profileId=${profileOf('threads')}&timezone=America/New_York&count=3`,
    );
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      profileId: profileOf('threads'),
      platform: 'threads',
      timezone: 'America/New_York',
      basis: 'defaults',
      postsAnalyzed: 0,
      reason: expect.any(String),
    });
    expect(r.body.slots).toHaveLength(3);
    const slots = r.body.slots.map(({ day, time }: { day: string; time: string }) => ({ day, time }));
    expect(
      (await call('POST', '/api/v1/schedules', weekly({ name: 'suggested', timezone: 'America/New_York', slots })))
        .status,
    ).toBe(201);
  });

  test('when the query is wrong or names a profile the caller may not use, then it is refused with its code', async () => {
    expectCode(
      await call('GET', `/api/v1/schedules/suggest?profileId=${profileOf('threads')}&timezone=Nowhere/Land`),
      400,
      'validation_error',
    );
    expectCode(
      await call('GET', `/api/v1/schedules/suggest?profileId=${profileOf('threads')}&count=0`),
      400,
      'validation_error',
    );
    expectCode(await call('GET', '/api/v1/schedules/suggest'), 400, 'validation_error');
    expectCode(
      await call('GET', `/api/v1/schedules/suggest?profileId=${other.profiles[0].id}`),
      400,
      'invalid_profile_ids',
    );
  });
});
