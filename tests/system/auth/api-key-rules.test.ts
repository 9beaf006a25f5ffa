import { Rpc } from '@postbus/contracts';
import { createTestEnv, waitFor, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

// Verdicts stay cached for a minute here, so only the revocation event can explain a prompt refusal.
const CACHE_MS = '60000';

let env: TestEnv;
let system: RunningSystem;

beforeAll(async () => {
  env = await createTestEnv('auth_rules');
  system = await startSystem(env, { AUTH_CACHE_MS: CACHE_MS });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

async function call(
  init: { authorization?: string; key?: string; method?: string; path?: string; body?: unknown } = {},
) {
  const headers: Record<string, string> = {};
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  if (init.authorization) headers.authorization = init.authorization;
  if (init.body) headers['content-type'] = 'application/json';
  const res = await fetch(`${system.baseUrl}${init.path ?? '/api/v1/posts/pst_missing'}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A request that got past authentication lands on the posts service: an unknown post is 404 post_not_found. */
async function expectAccepted(key: string) {
  const r = await call({ key });
  expect(r).toEqual({ status: 404, body: { error: expect.any(String), code: 'post_not_found' } });
}

async function expectRefused(key: string, status: number, code: string) {
  const r = await call({ key });
  expect(r).toEqual({ status, body: { error: expect.any(String), code } });
}

const rpc = () => system.bus.rpc;

describe('missing_api_key', () => {
  test.each([
    ['no Authorization header', undefined],
    ['a Basic header', 'Basic dXNlcjpwYXNz'],
    ['a Bearer header without a token', 'Bearer '],
    ['the key without the Bearer word', 'sk_live_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG'],
  ])('when the request carries %s, then 401 missing_api_key', async (_what, authorization) => {
    const r = await call({ authorization });
    expect(r).toEqual({ status: 401, body: { error: expect.any(String), code: 'missing_api_key' } });
  });
});

describe('invalid_api_key', () => {
  test('when the key is unknown or not a key at all, then 401 invalid_api_key', async () => {
    await expectRefused(`sk_live_${'a'.repeat(43)}`, 401, 'invalid_api_key');
    await expectRefused('not-a-key', 401, 'invalid_api_key');
  });

  test('when a real key is sent with one character changed, then 401 invalid_api_key', async () => {
    const a = await system.seedAccount({ platforms: [] });
    const last = a.apiKey.at(-1) === 'a' ? 'b' : 'a';
    await expectRefused(a.apiKey.slice(0, -1) + last, 401, 'invalid_api_key');
    await expectAccepted(a.apiKey);
  });

  test('when the key was revoked, then 401 invalid_api_key', async () => {
    const a = await system.seedAccount({ platforms: [] });
    await rpc().call(Rpc.authRevokeKey, { keyId: a.keyId });
    await expectRefused(a.apiKey, 401, 'invalid_api_key');
  });

  test('when the key has expired, then 401 invalid_api_key', async () => {
    const a = await system.seedAccount({ platforms: [] });
    const expiresAt = new Date(Date.now() + 1000).toISOString();
    const { key } = await rpc().call(Rpc.authIssueKey, {
      accountId: a.accountId,
      name: 'short-lived',
      scopes: ['post:read'],
      expiresAt,
    });
    await waitFor(() => (Date.now() > Date.parse(expiresAt) + 50 ? true : undefined), { what: 'the expiry to pass' });
    await expectRefused(key, 401, 'invalid_api_key');
  });

  test('when a key in use and cached by the gateway is revoked, then it is refused within a second', async () => {
    const a = await system.seedAccount({ platforms: [] });
    await expectAccepted(a.apiKey); // verified by auth and now cached for a minute
    await expectAccepted(a.apiKey);
    await rpc().call(Rpc.authRevokeKey, { keyId: a.keyId, accountId: a.accountId });
    const refused = await waitFor(
      async () => {
        const r = await call({ key: a.apiKey });
        return r.status === 401 ? r : undefined;
      },
      { timeoutMs: 1000, intervalMs: 25, what: 'the revoked key to be refused' },
    );
    expect(refused.body.code).toBe('invalid_api_key');
  });

  test('when a key is revoked twice or through another account, then the first revocation stands and the other account gets not_found', async () => {
    const a = await system.seedAccount({ platforms: [] });
    const b = await system.seedAccount({ platforms: [] });
    await expect(rpc().call(Rpc.authRevokeKey, { keyId: a.keyId, accountId: b.accountId })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expectAccepted(a.apiKey);
    const first = await rpc().call(Rpc.authRevokeKey, { keyId: a.keyId });
    const again = await rpc().call(Rpc.authRevokeKey, { keyId: a.keyId });
    expect(first.status).toBe('revoked');
    expect(again.revokedAt).toBe(first.revokedAt);
  });
});

describe('insufficient_scope', () => {
  test('when a read-only key creates a post, then 403 insufficient_scope, while reading is allowed', async () => {
    const a = await system.seedAccount({ platforms: ['threads'], scopes: ['post:read'] });
    const r = await call({
      key: a.apiKey,
      method: 'POST',
      path: '/api/v1/posts',
      body: { platforms: ['threads'], caption: 'not allowed' },
    });
    expect(r).toEqual({
      status: 403,
      body: { error: expect.stringContaining('post:write'), code: 'insufficient_scope' },
    });
    await expectAccepted(a.apiKey);
  });

  test('when a write-only key reads a post, then 403 insufficient_scope', async () => {
    const a = await system.seedAccount({ platforms: [], scopes: ['post:write'] });
    await expectRefused(a.apiKey, 403, 'insufficient_scope');
  });
});

describe('api_access_disabled', () => {
  test('when the account is disabled, then 403 api_access_disabled, and enabling it again lets the key through', async () => {
    const a = await system.seedAccount({ platforms: [] });
    await rpc().call(Rpc.authUpdateAccount, { accountId: a.accountId, disabled: true });
    await expectRefused(a.apiKey, 403, 'api_access_disabled');
    await rpc().call(Rpc.authUpdateAccount, { accountId: a.accountId, disabled: false });
    await expectAccepted(a.apiKey);
  });

  test("when the key's user is disabled, then 403 api_access_disabled", async () => {
    const a = await system.seedAccount({ platforms: [] });
    const user = await rpc().call(Rpc.authUpdateUser, { userId: a.userId, disabled: true });
    expect(user).toMatchObject({ userId: a.userId, accountId: a.accountId, disabled: true });
    await expectRefused(a.apiKey, 403, 'api_access_disabled');
  });
});

describe('plan_required', () => {
  const past = () => new Date(Date.now() - 60_000).toISOString();

  test('when the trial is still running, then the key is accepted', async () => {
    const a = await system.seedAccount({ platforms: [] });
    const account = await rpc().call(
      Rpc.authGetAccount,
      {},
      {
        accountId: a.accountId,
        userId: a.userId,
        credential: { type: 'system', id: 'test' },
        scopes: [],
        profileIds: 'all',
      },
    );
    expect(account).toMatchObject({ plan: 'trial', tester: false, entitled: true });
    const days = (Date.parse(account.trialEndsAt) - Date.parse(account.createdAt)) / 86_400_000;
    expect(days).toBeCloseTo(14, 3);
    await expectAccepted(a.apiKey);
  });

  test('when the trial is over without a plan and the account is no tester, then 403 plan_required', async () => {
    const a = await system.seedAccount({ platforms: [] });
    const summary = await rpc().call(Rpc.authUpdateAccount, { accountId: a.accountId, trialEndsAt: past() });
    expect(summary.entitled).toBe(false);
    await expectRefused(a.apiKey, 403, 'plan_required');
  });

  test('when the plan is expired, then 403 plan_required', async () => {
    const a = await system.seedAccount({ platforms: [], plan: 'expired' });
    await expectRefused(a.apiKey, 403, 'plan_required');
  });

  test('when the trial is over but the account is a registered tester, then the key is accepted', async () => {
    const a = await system.seedAccount({ platforms: [], tester: true });
    await rpc().call(Rpc.authUpdateAccount, { accountId: a.accountId, trialEndsAt: past() });
    await expectAccepted(a.apiKey);
  });

  test('when the trial is over and the account is on the pro plan, then the key is accepted', async () => {
    const a = await system.seedAccount({ platforms: [] });
    await rpc().call(Rpc.authUpdateAccount, { accountId: a.accountId, trialEndsAt: past(), plan: 'pro' });
    await expectAccepted(a.apiKey);
  });
});

describe('key records', () => {
  test('when a key is used, then its listing shows the last use and never the secret', async () => {
    const a = await system.seedAccount({ platforms: [] });
    await expectAccepted(a.apiKey);
    const { keys } = await rpc().call(Rpc.authListKeys, { accountId: a.accountId });
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ keyId: a.keyId, status: 'active', profileIds: 'all', revokedAt: null });
    expect(keys[0].lastUsedAt).not.toBeNull();
    expect(a.apiKey.startsWith(keys[0].prefix.replace('…', ''))).toBe(true);
    expect(JSON.stringify(keys)).not.toContain(a.apiKey);
    expect(a.apiKey).toMatch(/^sk_live_[0-9A-Za-z]{43}$/);
  });

  test('when a key is issued with an unknown scope, a past expiry or an empty profile list, then validation_error and no key', async () => {
    const a = await system.seedAccount({ platforms: [] });
    const base = { accountId: a.accountId, name: 'x', scopes: ['post:read'] };
    await expect(rpc().call(Rpc.authIssueKey, { ...base, scopes: ['post:everything'] })).rejects.toMatchObject({
      code: 'validation_error',
    });
    await expect(
      rpc().call(Rpc.authIssueKey, { ...base, expiresAt: new Date(Date.now() - 1000).toISOString() }),
    ).rejects.toMatchObject({ code: 'validation_error' });
    await expect(rpc().call(Rpc.authIssueKey, { ...base, profileIds: [] })).rejects.toMatchObject({
      code: 'validation_error',
    });
    expect((await rpc().call(Rpc.authListKeys, { accountId: a.accountId })).keys).toHaveLength(1);
  });
});
