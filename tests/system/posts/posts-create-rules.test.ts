import { Rpc } from '@postbus/contracts';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { allPosts, api, inHours, principalOf } from '../support/posts-api';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('posts_rules');
  // Trial accounts get a tiny quota here; the other accounts are on the pro plan.
  system = await startSystem(env, { QUOTA_TRIAL_POSTS: '3', RATE_LIMIT_PER_MINUTE: '0' });
  account = await system.seedAccount({ platforms: ['threads', 'facebook', 'tiktok'], plan: 'pro' });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const threads = () => account.profiles.find((p) => p.platform === 'threads')!.id;
const create = (body: unknown, opts: { path?: string; key?: string; headers?: Record<string, string> } = {}) =>
  api(system, opts.path ?? '/api/v1/posts', {
    method: 'POST',
    key: opts.key ?? account.apiKey,
    body,
    headers: opts.headers,
  });

async function expectRefused(body: unknown, status: number, code: string, path?: string) {
  const r = await create(body, { path });
  expect({ status: r.status, code: r.body?.code }).toEqual({ status, code });
  expect(r.body.error).toEqual(expect.any(String));
  return r;
}

describe('the payload rules', () => {
  test('when platforms is missing or empty, then 400 missing_platforms', async () => {
    await expectRefused({ caption: 'hi' }, 400, 'missing_platforms');
    await expectRefused({ platforms: [], caption: 'hi' }, 400, 'missing_platforms');
  });

  test('when a platform is not supported, then 400 unsupported_platform naming it', async () => {
    const r = await expectRefused({ platforms: ['threads', 'myspace'], caption: 'hi' }, 400, 'unsupported_platform');
    expect(r.body.error).toContain('myspace');
  });

  test('when there is no caption, mediaUrls or mediaId, then 400 missing_content', async () => {
    await expectRefused({ platforms: ['threads'] }, 400, 'missing_content');
    await expectRefused({ platforms: ['threads'], caption: '   ' }, 400, 'missing_content');
  });

  test('when the caption is longer than 2,200 characters, then 400 validation_error naming caption', async () => {
    const r = await expectRefused({ platforms: ['facebook'], caption: 'x'.repeat(2201) }, 400, 'validation_error');
    expect(r.body.error).toMatch(/caption/);
  });

  test('when a platform setting has the wrong type or value, then 400 validation_error naming it, before any publish', async () => {
    const video = { platforms: ['youtube'], title: 'T', mediaUrls: ['https://cdn.example.com/v.mp4'] };
    expect(
      (
        await expectRefused(
          { ...video, platformMeta: { youtube: { privacyStatus: 'secret' } } },
          400,
          'validation_error',
        )
      ).body.error,
    ).toMatch(/privacyStatus/);
    expect(
      (
        await expectRefused(
          {
            platforms: ['instagram'],
            mediaUrls: ['https://cdn.example.com/v.mp4'],
            platformMeta: { instagram: { thumbOffsetMs: -1 } },
          },
          400,
          'validation_error',
        )
      ).body.error,
    ).toMatch(/thumbOffsetMs/);
    expect(
      (
        await expectRefused(
          {
            platforms: ['facebook'],
            mediaUrls: ['https://cdn.example.com/v.mp4'],
            platformMeta: { facebook: { reel: 'yes' } },
          },
          400,
          'validation_error',
        )
      ).body.error,
    ).toMatch(/reel/);
  });

  test('when a Threads caption is longer than 500 characters, then 400 validation_error', async () => {
    const r = await expectRefused({ platforms: ['threads'], caption: 'x'.repeat(501) }, 400, 'validation_error');
    expect(r.body.error).toMatch(/Threads/);
  });

  test('when a TikTok post has no title or one over 150 characters, then 400 validation_error', async () => {
    const base = {
      platforms: ['tiktok'],
      mediaUrls: ['https://cdn.example.com/v.mp4'],
      platformMeta: { tiktok: { privacyLevel: 'SELF_ONLY' } },
    };
    expect((await expectRefused(base, 400, 'validation_error')).body.error).toMatch(/title/);
    expect((await expectRefused({ ...base, title: 't'.repeat(151) }, 400, 'validation_error')).body.error).toMatch(
      /150/,
    );
  });

  test('when a TikTok post has no privacyLevel, or discloses commercial content without an opt-in, then 400 validation_error', async () => {
    const base = { platforms: ['tiktok'], title: 'A video', mediaUrls: ['https://cdn.example.com/v.mp4'] };
    expect((await expectRefused(base, 400, 'validation_error')).body.error).toMatch(/privacyLevel/);
    const noOptIn = await expectRefused(
      { ...base, platformMeta: { tiktok: { privacyLevel: 'PUBLIC_TO_EVERYONE', commercialContentDisclosure: true } } },
      400,
      'validation_error',
    );
    expect(noOptIn.body.error).toMatch(/brandOrganicOptIn|brandContentOptIn/);
    const withOptIn = await create({
      ...base,
      platformMeta: {
        tiktok: { privacyLevel: 'PUBLIC_TO_EVERYONE', commercialContentDisclosure: true, brandOrganicOptIn: true },
      },
      scheduledTime: inHours(2),
    });
    expect(withOptIn.status).toBe(201);
  });

  test('when a YouTube post has no title, then 400 validation_error', async () => {
    const r = await expectRefused(
      { platforms: ['youtube'], mediaUrls: ['https://cdn.example.com/v.mp4'] },
      400,
      'validation_error',
    );
    expect(r.body.error).toMatch(/YouTube/);
  });

  test('when scheduledTime has no offset or is not a datetime, then 400 invalid_scheduled_time', async () => {
    await expectRefused(
      { platforms: ['threads'], caption: 'hi', scheduledTime: '2030-12-01T09:30:00' },
      400,
      'invalid_scheduled_time',
    );
    await expectRefused(
      { platforms: ['threads'], caption: 'hi', scheduledTime: 'tomorrow' },
      400,
      'invalid_scheduled_time',
    );
    await expectRefused(
      { platforms: ['threads'], caption: 'hi', scheduledTime: 1_900_000_000 },
      400,
      'invalid_scheduled_time',
    );
  });

  test('when scheduledTime is not in the future, then 400 scheduled_time_in_past', async () => {
    await expectRefused(
      { platforms: ['threads'], caption: 'hi', scheduledTime: '2020-01-01T00:00:00Z' },
      400,
      'scheduled_time_in_past',
    );
  });

  test('when /posts/schedule has no scheduledTime, then 400 invalid_scheduled_time; /posts without one is due at the next run', async () => {
    await expectRefused(
      { platforms: ['threads'], caption: 'hi' },
      400,
      'invalid_scheduled_time',
      '/api/v1/posts/schedule',
    );
    const r = await create({ platforms: ['threads'], caption: 'right away' });
    expect(r.status).toBe(201);
    expect(Date.parse(r.body.scheduledTime)).toBeGreaterThan(Date.now() - 5000);
  });
});

describe('profiles', () => {
  test('when a profile id is unknown, another account’s, or of a platform not requested, then 400 invalid_profile_ids', async () => {
    const other = await system.seedAccount({ platforms: ['threads'], plan: 'pro' });
    await expectRefused(
      { platforms: ['threads'], caption: 'hi', profileIds: ['prf_nope'] },
      400,
      'invalid_profile_ids',
    );
    await expectRefused(
      { platforms: ['threads'], caption: 'hi', profileIds: [other.profiles[0].id] },
      400,
      'invalid_profile_ids',
    );
    const facebook = account.profiles.find((p) => p.platform === 'facebook')!.id;
    await expectRefused({ platforms: ['threads'], caption: 'hi', profileIds: [facebook] }, 400, 'invalid_profile_ids');
  });

  test('when a named profile was disconnected, then 400 invalid_profile_ids', async () => {
    const owner = await system.seedAccount({ platforms: ['threads'], plan: 'pro' });
    const profileId = owner.profiles[0].id;
    const gone = await api(system, `/api/v1/connections/${profileId}`, { method: 'DELETE', key: owner.apiKey });
    expect(gone.status).toBe(200);
    const r = await create({ platforms: ['threads'], caption: 'hi', profileIds: [profileId] }, { key: owner.apiKey });
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 400, code: 'invalid_profile_ids' });
  });

  test('when no profile of a requested platform is connected, then 400 invalid_profile_ids', async () => {
    await expectRefused(
      { platforms: ['instagram'], mediaUrls: ['https://cdn.example.com/a.jpg'] },
      400,
      'invalid_profile_ids',
    );
  });

  test('when the key is limited to other profiles, then 403 profile_scope_denied', async () => {
    const facebook = account.profiles.find((p) => p.platform === 'facebook')!.id;
    const { key } = await system.bus.rpc.call(Rpc.authIssueKey, {
      accountId: account.accountId,
      userId: account.userId,
      name: 'fb only',
      scopes: ['post:write', 'post:read'],
      profileIds: [facebook],
    });
    const r = await create({ platforms: ['threads'], caption: 'hi', profileIds: [threads()] }, { key });
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 403, code: 'profile_scope_denied' });
    // Without profileIds such a key reaches only the profiles it may use.
    const both = await create(
      { platforms: ['threads', 'facebook'], caption: 'hi', scheduledTime: inHours(3) },
      { key },
    );
    expect(both.status).toBe(201);
    expect(both.body.postIds).toHaveLength(1);
  });

  test('when several platforms and profiles match, then one scheduled row is created per profile', async () => {
    const r = await create({ platforms: ['threads', 'facebook'], caption: 'to both', scheduledTime: inHours(4) });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      postIds: [expect.stringMatching(/^pst_/), expect.stringMatching(/^pst_/)],
      status: 'scheduled',
      scheduledTime: expect.any(String),
    });
    const posts = await Promise.all(
      r.body.postIds.map((id: string) => api(system, `/api/v1/posts/${id}`, { key: account.apiKey })),
    );
    expect(posts.map((p) => p.body.platforms[0]).sort()).toEqual(['facebook', 'threads']);
    expect(posts.every((p) => p.body.status === 'scheduled' && p.body.caption === 'to both')).toBe(true);
  });

  test('when the key lacks post:write, then 403 insufficient_scope', async () => {
    const { key } = await system.bus.rpc.call(Rpc.authIssueKey, {
      accountId: account.accountId,
      userId: account.userId,
      name: 'reader',
      scopes: ['post:read'],
    });
    const r = await create({ platforms: ['threads'], caption: 'hi' }, { key });
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 403, code: 'insufficient_scope' });
  });
});

describe('quota', () => {
  test('when a request would go beyond the plan’s monthly quota, then 403 quota_exceeded and nothing is stored', async () => {
    const trial = await system.seedAccount({ platforms: ['threads', 'facebook'] });
    const principal = await principalOf(system, trial.apiKey);
    const two = { platforms: ['threads', 'facebook'], caption: 'two rows', scheduledTime: inHours(1) };
    expect((await create(two, { key: trial.apiKey })).status).toBe(201);
    const over = await create({ ...two, caption: 'two more' }, { key: trial.apiKey });
    expect({ status: over.status, code: over.body.code }).toEqual({ status: 403, code: 'quota_exceeded' });
    expect(await allPosts(system, principal)).toHaveLength(2);
    const one = await create(
      { platforms: ['threads'], caption: 'the third', scheduledTime: inHours(1) },
      { key: trial.apiKey },
    );
    expect(one.status).toBe(201);
    const fourth = await create(
      { platforms: ['threads'], caption: 'the fourth', scheduledTime: inHours(1) },
      { key: trial.apiKey },
    );
    expect(fourth.body.code).toBe('quota_exceeded');
    expect(await allPosts(system, principal)).toHaveLength(3);
  });
});

describe('duplicates', () => {
  test('when the same externalId comes with the same payload, then the original answer comes back (200) and nothing new is stored', async () => {
    const body = {
      platforms: ['threads'],
      caption: 'once',
      externalId: `ext-${Date.now()}`,
      scheduledTime: inHours(5),
    };
    const first = await create(body);
    const again = await create({ ...body });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const listed = await api(system, `/api/v1/posts?externalId=${body.externalId}`, { key: account.apiKey });
    expect(listed.body.data.map((p: { id: string }) => p.id)).toEqual(first.body.postIds);
  });

  test('when the same externalId comes with a different payload, then 409 external_id_conflict', async () => {
    const body = {
      platforms: ['threads'],
      caption: 'first',
      externalId: `ext-c-${Date.now()}`,
      scheduledTime: inHours(5),
    };
    expect((await create(body)).status).toBe(201);
    const r = await create({ ...body, caption: 'changed' });
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 409, code: 'external_id_conflict' });
  });

  test('when an Idempotency-Key is reused, then the same body replays (200) and a different one is 409 idempotency_conflict', async () => {
    const headers = { 'idempotency-key': `idem-${Date.now()}` };
    const body = { platforms: ['threads'], caption: 'idempotent', scheduledTime: inHours(6) };
    const first = await create(body, { headers });
    const again = await create(body, { headers });
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body.postIds).toEqual(first.body.postIds);
    const other = await create({ ...body, caption: 'something else' }, { headers });
    expect({ status: other.status, code: other.body.code }).toEqual({ status: 409, code: 'idempotency_conflict' });
  });
});

describe('POST /api/v1/posts/validate', () => {
  test('when a payload breaks several rules, then every problem is listed, per platform, and nothing is stored', async () => {
    const principal = await principalOf(system, account.apiKey);
    const before = (await allPosts(system, principal)).length;
    const r = await api(system, '/api/v1/posts/validate', {
      method: 'POST',
      key: account.apiKey,
      body: {
        platforms: ['tiktok', 'youtube', 'myspace'],
        caption: 'x'.repeat(10),
        scheduledTime: '2030-01-01T10:00:00',
        profileIds: ['prf_unknown'],
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.valid).toBe(false);
    const codes = r.body.problems.map((p: { code: string; platform?: string; field?: string }) => [
      p.code,
      p.platform ?? null,
      p.field ?? null,
    ]);
    expect(codes).toEqual(
      expect.arrayContaining([
        ['unsupported_platform', null, 'platforms'],
        ['invalid_scheduled_time', null, 'scheduledTime'],
        ['validation_error', 'tiktok', 'title'],
        ['validation_error', 'tiktok', 'platformMeta.tiktok.privacyLevel'],
        ['validation_error', 'youtube', 'title'],
        ['invalid_profile_ids', null, 'profileIds'],
      ]),
    );
    expect((await allPosts(system, principal)).length).toBe(before);
  });

  test('when a payload passes every rule, then valid is true with no problems and nothing is stored', async () => {
    const principal = await principalOf(system, account.apiKey);
    const before = (await allPosts(system, principal)).length;
    const r = await api(system, '/api/v1/posts/validate', {
      method: 'POST',
      key: account.apiKey,
      body: { platforms: ['threads'], caption: 'fine', scheduledTime: inHours(1) },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ valid: true, problems: [] });
    expect((await allPosts(system, principal)).length).toBe(before);
  });

  test('when the account’s quota is used up or the externalId was used for another payload, then those are problems too', async () => {
    const trial = await system.seedAccount({ platforms: ['threads'] });
    const externalId = `v-${Date.now()}`;
    for (const caption of ['a', 'b', 'c']) {
      expect(
        (
          await create(
            { platforms: ['threads'], caption, scheduledTime: inHours(1), ...(caption === 'a' && { externalId }) },
            { key: trial.apiKey },
          )
        ).status,
      ).toBe(201);
    }
    const r = await api(system, '/api/v1/posts/validate', {
      method: 'POST',
      key: trial.apiKey,
      body: { platforms: ['threads'], caption: 'd', externalId },
    });
    expect(r.body.problems.map((p: { code: string }) => p.code).sort()).toEqual([
      'external_id_conflict',
      'quota_exceeded',
    ]);
  });
});
