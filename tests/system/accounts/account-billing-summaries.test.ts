import { PLATFORMS, Rpc, SCOPES } from '@postbus/contracts';
import { createTestEnv, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { start as startGateway } from '@postbus/gateway';

const QUOTA = 8;
const STORAGE_MB = 1;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let env: TestEnv;
let system: RunningSystem;
let replica: Awaited<ReturnType<typeof startGateway>>;

beforeAll(async () => {
  env = await createTestEnv('gateway_account_billing');
  // Refreshes are not deduplicated here, so a profile can be refused at once after it was connected.
  system = await startSystem(env, {
    QUOTA_TRIAL_POSTS: String(QUOTA),
    QUOTA_TRIAL_STORAGE_MB: String(STORAGE_MB),
    TOKEN_REFRESH_DEDUP_MS: '0',
  });
  // A second gateway over the same services, allowing one request a minute per key.
  replica = await startGateway({ ...env.env, PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_PER_MINUTE: '1' });
});
afterAll(async () => {
  await replica?.lifecycle.stop();
  await system?.stop();
  await env?.drop();
});

async function api(
  path: string,
  key: string | undefined,
  init: { method?: string; body?: unknown; form?: FormData; baseUrl?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${init.baseUrl ?? system.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.form ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();
const profileOf = (a: SeededAccount, platform: string) => a.profiles.find((p) => p.platform === platform)!.id;

/** A sandbox user connected to the account, then revoked at the platform and refreshed: the profile needs a reconnect. */
async function brokenProfile(a: SeededAccount, platform: string): Promise<{ id: string; handle: string }> {
  const res = await fetch(`${system.sandboxUrl}/__sandbox/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ platform, handle: `broken_${platform}` }),
  });
  const user = (await res.json()) as { userId: string; accessToken: string; handle: string };
  const profile = await system.bus.rpc.call(Rpc.connectionsSeedProfile, {
    accountId: a.accountId,
    platform,
    platformUserId: user.userId,
    handle: user.handle,
    accessToken: user.accessToken,
  });
  await fetch(`${system.sandboxUrl}/__sandbox/users/${user.userId}/revoke`, { method: 'POST' });
  const refreshed = await system.bus.rpc
    .call(Rpc.connectionsRefreshCredentials, { profileId: profile.id, accountId: a.accountId })
    .catch((err: Error) => err);
  expect(refreshed).toMatchObject({ status: 'needs_reconnect' });
  return { id: profile.id, handle: profile.handle };
}

async function settled(key: string, postId: string) {
  return waitFor(
    async () => {
      const r = await api(`/api/v1/posts/${postId}`, key);
      return r.body.status === 'scheduled' ? undefined : r.body;
    },
    { timeoutMs: 15_000, what: `post ${postId} to leave scheduled` },
  );
}

describe('GET /api/v1/account and /api/v1/billing', () => {
  let account: SeededAccount;
  let broken: { id: string; handle: string };

  beforeAll(async () => {
    account = await system.seedAccount({ platforms: ['threads', 'facebook'] });
    broken = await brokenProfile(account, 'instagram');
    const key = account.apiKey;
    const threads = profileOf(account, 'threads');
    const facebook = profileOf(account, 'facebook');
    // Two scheduled, one cancelled, two drafts (one sent for approval), one posted, one failed: 7 posts.
    for (const h of [2, 3])
      expect(
        (
          await api('/api/v1/posts', key, {
            method: 'POST',
            body: { platforms: ['threads'], profileIds: [threads], caption: `later ${h}`, scheduledTime: inHours(h) },
          })
        ).status,
      ).toBe(201);
    const toCancel = await api('/api/v1/posts', key, {
      method: 'POST',
      body: { platforms: ['facebook'], profileIds: [facebook], caption: 'never mind', scheduledTime: inHours(4) },
    });
    expect((await api(`/api/v1/posts/${toCancel.body.postIds[0]}`, key, { method: 'DELETE' })).body.status).toBe(
      'cancelled',
    );
    const drafts = [];
    for (const caption of ['draft a', 'draft b'])
      drafts.push(
        (
          await api('/api/v1/posts/drafts', key, {
            method: 'POST',
            body: { platforms: ['threads'], profileIds: [threads], caption },
          })
        ).body.postIds[0],
      );
    expect((await api(`/api/v1/posts/${drafts[1]}/approval`, key, { method: 'POST' })).status).toBe(201);
    const posted = await api('/api/v1/publish', key, {
      method: 'POST',
      body: { platforms: ['threads'], profileIds: [threads], caption: 'goes live' },
    });
    expect((await settled(key, posted.body.postIds[0])).status).toBe('posted');
    await fetch(`${system.sandboxUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ platform: 'facebook', mode: 'error', code: 100, count: 1 }),
    });
    const failed = await api('/api/v1/publish', key, {
      method: 'POST',
      body: { platforms: ['facebook'], profileIds: [facebook], caption: 'refused' },
    });
    expect((await settled(key, failed.body.postIds[0])).status).toBe('failed');
  });

  test('when an account has posts in every state and a profile needing a reconnect, then the account summary counts them', async () => {
    const { status, body } = await api('/api/v1/account', account.apiKey);

    expect(status).toBe(200);
    expect(body.account).toEqual({
      id: account.accountId,
      name: expect.stringMatching(/@example\.com$/),
      plan: 'trial',
      tester: false,
      createdAt: expect.any(String),
    });
    expect(body.user).toEqual({ id: account.userId, email: body.account.name, createdAt: expect.any(String) });
    expect(body.credential).toEqual({
      type: 'api_key',
      id: account.keyId,
      name: 'development',
      scopes: [...SCOPES],
      profileIds: 'all',
      expiresAt: null,
    });
    expect(body.profiles).toEqual({
      total: 3,
      // Every platform is listed, those without a profile at zero.
      byPlatform: {
        ...Object.fromEntries(PLATFORMS.map((p) => [p, { active: 0, needsReconnect: 0 }])),
        threads: { active: 1, needsReconnect: 0 },
        facebook: { active: 1, needsReconnect: 0 },
        instagram: { active: 0, needsReconnect: 1 },
      },
      needsReconnect: [
        { id: broken.id, platform: 'instagram', handle: broken.handle, statusReason: expect.any(String) },
      ],
    });
    expect(body.posts).toEqual({
      total: 7,
      byStatus: { draft: 1, pending_approval: 1, rejected: 0, scheduled: 2, posted: 1, failed: 1, cancelled: 1 },
    });
  });

  test('when a key is limited to one profile, then the summary names that key and counts only the profiles and posts it may use', async () => {
    const threads = profileOf(account, 'threads');
    const expiresAt = '2031-01-01T00:00:00.000Z';
    const { key, keyId } = await system.bus.rpc.call(Rpc.authIssueKey, {
      accountId: account.accountId,
      userId: account.userId,
      name: 'reporting',
      scopes: ['account:read'],
      profileIds: [threads],
      expiresAt,
    });

    const { status, body } = await api('/api/v1/account', key);

    expect(status).toBe(200);
    expect(body.credential).toEqual({
      type: 'api_key',
      id: keyId,
      name: 'reporting',
      scopes: ['account:read'],
      profileIds: [threads],
      expiresAt,
    });
    expect(body.profiles.total).toBe(1);
    expect(body.profiles.byPlatform.threads).toEqual({ active: 1, needsReconnect: 0 });
    expect(body.profiles.needsReconnect).toEqual([]);
    // The Threads profile's posts only: the cancelled and the failed one are Facebook's.
    expect(body.posts).toEqual({
      total: 5,
      byStatus: { draft: 1, pending_approval: 1, rejected: 0, scheduled: 2, posted: 1, failed: 0, cancelled: 0 },
    });
  });

  test('when posts and media were created this month, then billing sets them against the plan quotas and says what happens at the limits', async () => {
    const form = new FormData();
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'pixel.png');
    expect((await api('/api/v1/media', account.apiKey, { method: 'POST', form })).status).toBe(201);
    const now = new Date();

    const { status, body } = await api('/api/v1/billing', account.apiKey);

    expect(status).toBe(200);
    const created = Date.parse(body.trial.startedAt);
    expect(body).toMatchObject({
      plan: 'trial',
      entitled: true,
      tester: false,
      trial: { onTrial: true, daysLeft: 14 },
    });
    expect(Date.parse(body.trial.endsAt) - created).toBeGreaterThanOrEqual(14 * 86_400_000 - 1000);
    expect(Date.parse(body.trial.endsAt) - created).toBeLessThanOrEqual(14 * 86_400_000 + 1000);
    expect(body.trial.whenOver).toMatch(/plan_required/);
    expect(body.scheduling).toMatchObject({
      quota: QUOTA,
      used: 7,
      remaining: 1,
      periodStart: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
      periodEnd: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
    });
    expect(body.scheduling.whenExhausted).toMatch(/quota_exceeded/);
    expect(body.storage).toMatchObject({
      quotaBytes: STORAGE_MB * 1024 * 1024,
      usedBytes: PNG.length,
      remainingBytes: STORAGE_MB * 1024 * 1024 - PNG.length,
      mediaCount: 1,
    });
    expect(body.storage.whenExhausted).toMatch(/storage_quota_exceeded/);
    expect(body.planChanges).toMatch(/set-plan/);

    // The quota billing reports is the one creates are held to: one post left, then none.
    const threads = profileOf(account, 'threads');
    const two = await api('/api/v1/posts', account.apiKey, {
      method: 'POST',
      body: { platforms: ['threads', 'facebook'], caption: 'two at once', scheduledTime: inHours(5) },
    });
    expect(two.body.code).toBe('quota_exceeded');
    expect(
      (
        await api('/api/v1/posts/drafts', account.apiKey, {
          method: 'POST',
          body: { platforms: ['threads'], profileIds: [threads], caption: 'the last one' },
        })
      ).status,
    ).toBe(201);
    expect((await api('/api/v1/billing', account.apiKey)).body.scheduling).toMatchObject({ used: QUOTA, remaining: 0 });
  });

  test('when an operator changes the plan or the tester flag, then billing follows', async () => {
    const pro = await system.seedAccount({ platforms: [] });
    await system.bus.rpc.call(Rpc.authUpdateAccount, { accountId: pro.accountId, plan: 'pro' });
    const paid = (await api('/api/v1/billing', pro.apiKey)).body;
    expect(paid).toMatchObject({
      plan: 'pro',
      entitled: true,
      trial: { onTrial: false },
      scheduling: { quota: 10_000, used: 0, remaining: 10_000 },
      storage: { quotaBytes: 51_200 * 1024 * 1024, usedBytes: 0, mediaCount: 0 },
    });
    expect(paid.trial.whenOver).toMatch(/pro plan/);

    const tester = await system.seedAccount({ platforms: [], tester: true });
    await system.bus.rpc.call(Rpc.authUpdateAccount, {
      accountId: tester.accountId,
      trialEndsAt: new Date(Date.now() - 86_400_000).toISOString(),
    });
    const beta = (await api('/api/v1/billing', tester.apiKey)).body;
    expect(beta).toMatchObject({ plan: 'trial', tester: true, entitled: true, trial: { daysLeft: 0, onTrial: true } });
    expect(beta.trial.whenOver).toMatch(/Tester/);
  });
});

describe('errors of the summary routes', () => {
  const PATHS = ['/api/v1/account', '/api/v1/billing', '/api/v1/analytics'];
  const codes = async (key: string | undefined, baseUrl?: string) =>
    Promise.all(
      PATHS.map(async (p) => {
        const r = await api(p, key, { baseUrl });
        return [r.status, r.body.code ?? null];
      }),
    );

  test('when no key or an unknown key is sent, then 401 missing_api_key or invalid_api_key', async () => {
    expect(await codes(undefined)).toEqual(PATHS.map(() => [401, 'missing_api_key']));
    expect(await codes('sk_live_notakeyatallnotakeyatallnotakeyatall123')).toEqual(
      PATHS.map(() => [401, 'invalid_api_key']),
    );
  });

  test('when the key lacks account:read or post:read, then 403 insufficient_scope', async () => {
    const reader = await system.seedAccount({ platforms: [], scopes: ['post:read'] });
    const accountant = await system.seedAccount({ platforms: [], scopes: ['account:read'] });
    expect(await codes(reader.apiKey)).toEqual([
      [403, 'insufficient_scope'],
      [403, 'insufficient_scope'],
      [200, null],
    ]);
    expect(await codes(accountant.apiKey)).toEqual([
      [200, null],
      [200, null],
      [403, 'insufficient_scope'],
    ]);
  });

  test('when the account is disabled or its trial is over, then 403 api_access_disabled or plan_required', async () => {
    const disabled = await system.seedAccount({ platforms: [] });
    await system.bus.rpc.call(Rpc.authUpdateAccount, { accountId: disabled.accountId, disabled: true });
    expect(await codes(disabled.apiKey)).toEqual(PATHS.map(() => [403, 'api_access_disabled']));

    const lapsed = await system.seedAccount({ platforms: [] });
    await system.bus.rpc.call(Rpc.authUpdateAccount, {
      accountId: lapsed.accountId,
      trialEndsAt: new Date(Date.now() - 1000).toISOString(),
    });
    expect(await codes(lapsed.apiKey)).toEqual(PATHS.map(() => [403, 'plan_required']));
  });

  test('when a key goes over its rate limit, then 429 rate_limited with Retry-After', async () => {
    for (const path of PATHS) {
      const a = await system.seedAccount({ platforms: [] });
      expect((await api(path, a.apiKey, { baseUrl: replica.baseUrl })).status).toBe(200);
      const over = await api(path, a.apiKey, { baseUrl: replica.baseUrl });
      expect([over.status, over.body.code]).toEqual([429, 'rate_limited']);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  });

  test('when a service that owns a figure does not answer, then 503 service_unavailable with Retry-After', async () => {
    const a = await system.seedAccount({ platforms: [] });
    await system.stopService('posts');
    const answers = await Promise.all(PATHS.map((p) => api(p, a.apiKey)));
    expect(answers.map((r) => [r.status, r.body.code, r.headers.get('retry-after')])).toEqual(
      PATHS.map(() => [503, 'service_unavailable', '1']),
    );
  });
});
