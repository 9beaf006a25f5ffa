import { Rpc } from '@postbus/contracts';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { api, issuedTokens, newConnectUrl, platformUser, Visitor, walkHandoff } from '../support/handoff';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('conn_requests');
  system = await startSystem(env);
  account = await system.seedAccount({ platforms: [] });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

describe('creating a connection request', () => {
  test('when a platform is asked for, then a single-use link under the base URL comes back, pending, expiring in 15 minutes', async () => {
    const before = Date.now();
    const created = await api(system, '/api/v1/connections', {
      method: 'POST',
      key: account.apiKey,
      body: { platform: 'instagram' },
    });
    const state = await api(system, `/api/v1/connections/requests/${created.body.requestId}`, { key: account.apiKey });

    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      requestId: expect.stringMatching(/^cnr_/),
      platform: 'instagram',
      connectUrl: `${system.baseUrl}/connect/${created.body.requestId}`,
      expiresAt: expect.any(String),
    });
    expect(Date.parse(created.body.expiresAt) - before).toBeGreaterThan(14 * 60_000);
    expect(Date.parse(created.body.expiresAt) - before).toBeLessThanOrEqual(15 * 60_000 + 5_000);
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({
      requestId: created.body.requestId,
      platform: 'instagram',
      status: 'pending',
      profileId: null,
      failureReason: null,
    });
  });

  test('when the platform is unknown, then 400 unsupported_platform', async () => {
    const res = await api(system, '/api/v1/connections', {
      method: 'POST',
      key: account.apiKey,
      body: { platform: 'myspace' },
    });

    expect(res.status).toBe(400);
    expect(res.body.code).toBe('unsupported_platform');
  });

  test('when no platform is sent, then 400 validation_error', async () => {
    const res = await api(system, '/api/v1/connections', { method: 'POST', key: account.apiKey, body: {} });

    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
  });

  test('when the key lacks account:write, then 403 insufficient_scope; without a key, 401 missing_api_key', async () => {
    const readOnly = await system.seedAccount({ platforms: [], scopes: ['account:read'] });

    const denied = await api(system, '/api/v1/connections', {
      method: 'POST',
      key: readOnly.apiKey,
      body: { platform: 'tiktok' },
    });
    const anonymous = await api(system, '/api/v1/connections', { method: 'POST', body: { platform: 'tiktok' } });

    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('insufficient_scope');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('missing_api_key');
  });
});

describe('completing the handoff', () => {
  test('when the person approves, then the request completes and the account is listed with spec 2.1 fields and no token', async () => {
    const link = await newConnectUrl(system, account.apiKey, 'tiktok');

    const page = await walkHandoff(link.connectUrl, { handle: 'dance.crew' });
    const state = await api(system, `/api/v1/connections/requests/${link.requestId}`, { key: account.apiKey });
    const list = await api(system, '/api/v1/connections', { key: account.apiKey });

    expect(page.status).toBe(200);
    expect(page.html).toContain('TikTok connected');
    expect(state.body).toMatchObject({
      status: 'completed',
      profileId: expect.stringMatching(/^prf_/),
      completedAt: expect.any(String),
    });
    const listed = list.body.accounts.find((a: { id: string }) => a.id === state.body.profileId);
    expect(listed).toEqual({
      id: state.body.profileId,
      platform: 'tiktok',
      handle: 'dance.crew',
      profileUrl: 'https://www.tiktok.com/@dance.crew',
      profileImageUrl: expect.stringMatching(/^http/),
      tokenExpiresAt: expect.any(String),
      connectedAt: expect.any(String),
      updatedAt: expect.any(String),
      status: 'active',
      statusReason: null,
    });
    expect(list.body.count).toBe(list.body.accounts.length);
    const text = JSON.stringify(list.body);
    for (const token of await issuedTokens(system)) expect(text).not.toContain(token);
  });

  test('when the person denies, then the page says so and the request is failed with the reason', async () => {
    const link = await newConnectUrl(system, account.apiKey, 'threads');

    const page = await walkHandoff(link.connectUrl, { decision: 'deny' });
    const state = await api(system, `/api/v1/connections/requests/${link.requestId}`, { key: account.apiKey });

    expect(page.status).toBe(400);
    expect(page.html).toContain('The Threads connection failed');
    expect(state.body).toMatchObject({
      status: 'failed',
      profileId: null,
      failureReason: 'The Threads authorization was declined.',
    });
  });

  test('when the link is used, then it cannot be used again, not even from a page opened before', async () => {
    const link = await newConnectUrl(system, account.apiKey, 'youtube');
    const first = new Visitor();
    const second = new Visitor();
    const csrfOf = (html: string) => html.match(/name="csrf" value="([^"]+)"/)![1];
    const firstPage = await first.get(link.connectUrl);
    const secondPage = await second.get(link.connectUrl);

    const used = await first.post(link.connectUrl, { csrf: csrfOf(firstPage.html) });
    const secondUse = await second.post(link.connectUrl, { csrf: csrfOf(secondPage.html) });
    const reopened = await new Visitor().get(link.connectUrl);
    const state = await api(system, `/api/v1/connections/requests/${link.requestId}`, { key: account.apiKey });

    expect(used.status).toBe(303);
    expect(secondUse.status).toBe(410);
    expect(secondUse.html).toContain('already used');
    expect(reopened.status).toBe(410);
    expect(reopened.html).toContain('already used');
    expect(state.body.status).toBe('pending');
  });

  test('when the continue form is sent without the page it came from, then 403 and the link stays usable', async () => {
    const link = await newConnectUrl(system, account.apiKey, 'youtube');

    const forged = await new Visitor().post(link.connectUrl, { csrf: 'guess' });
    const page = await walkHandoff(link.connectUrl);

    expect(forged.status).toBe(403);
    expect(page.html).toContain('YouTube connected');
  });

  test('when the callback is replayed, then it is refused and the profile is unchanged', async () => {
    const link = await newConnectUrl(system, account.apiKey, 'instagram');
    const done = await walkHandoff(link.connectUrl);
    const before = await api(system, '/api/v1/connections', { key: account.apiKey });

    const replay = await done.visitor.get(done.callbackUrl);
    const after = await api(system, '/api/v1/connections', { key: account.apiKey });

    expect(replay.status).toBe(400);
    expect(replay.html).toContain('already completed');
    expect(after.body).toEqual(before.body);
  });

  test('when the callback arrives in another browser, then nothing is stored and the request stays pending', async () => {
    const link = await newConnectUrl(system, account.apiKey, 'threads');
    const owner = new Visitor();
    const landing = await owner.get(link.connectUrl);
    const go = await owner.post(link.connectUrl, { csrf: landing.html.match(/name="csrf" value="([^"]+)"/)![1] });
    const consent = await owner.get(go.location!);
    const fields = Object.fromEntries(
      [...consent.html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [
        m[1],
        m[2].replace(/&amp;/g, '&'),
      ]),
    );
    const decided = await owner.post(go.location!, {
      ...fields,
      account: 'new',
      handle: 'stolen',
      decision: 'approve',
    });

    const stranger = await new Visitor().get(decided.location!);
    const state = await api(system, `/api/v1/connections/requests/${link.requestId}`, { key: account.apiKey });

    expect(stranger.status).toBe(400);
    expect(stranger.html).toContain('browser where the connection link was opened');
    expect(state.body.status).toBe('pending');
  });

  test('when a callback names no known request, then it is refused', async () => {
    const res = await new Visitor().get(`${system.baseUrl}/oauth/callback/tiktok?code=abc&state=nothing`);

    expect(res.status).toBe(400);
    expect(res.html).toContain('does not belong to any connection request');
  });

  test('when an unknown link is opened, then 404', async () => {
    const res = await new Visitor().get(`${system.baseUrl}/connect/cnr_doesnotexist`);

    expect(res.status).toBe(404);
    expect(res.html).toContain('Unknown link');
  });
});

describe('Facebook Pages and YouTube channels', () => {
  test('when two Pages are granted, then the person chooses one and that Page is the profile', async () => {
    const bakery = await platformUser(system, 'facebook', 'corner_bakery');
    const cafe = await platformUser(system, 'facebook', 'night_cafe');
    const link = await newConnectUrl(system, account.apiKey, 'facebook');

    const page = await walkHandoff(link.connectUrl, { accounts: [bakery.userId, cafe.userId], choose: cafe.userId });
    const state = await api(system, `/api/v1/connections/requests/${link.requestId}`, { key: account.apiKey });
    const creds = await system.bus.rpc.call(Rpc.connectionsGetCredentials, {
      profileId: state.body.profileId,
      accountId: account.accountId,
    });

    expect(page.html).toContain('Facebook connected');
    expect(creds).toMatchObject({
      platform: 'facebook',
      platformUserId: cafe.userId,
      handle: 'night_cafe',
      accessToken: cafe.accessToken,
      status: 'active',
    });
  });

  test('when a Page is chosen from another browser, then it is refused', async () => {
    const one = await platformUser(system, 'facebook', 'p_one');
    const two = await platformUser(system, 'facebook', 'p_two');
    const link = await newConnectUrl(system, account.apiKey, 'facebook');
    const chooser = await walkHandoff(link.connectUrl, { accounts: [one.userId, two.userId] });

    const state = chooser.html.match(/name="state" value="([^"]+)"/)![1];
    const stranger = await new Visitor().post(`${system.baseUrl}/oauth/callback/facebook/choose`, {
      state,
      account: one.userId,
    });

    expect(chooser.html).toContain('Choose the Facebook Page to connect');
    expect(stranger.status).toBe(400);
  });
});

describe('isolation between accounts', () => {
  test("when another account asks for a request or a profile, then 404 not_found, and lists show only the caller's own", async () => {
    const a = await system.seedAccount({ platforms: [] });
    const b = await system.seedAccount({ platforms: [] });
    const link = await newConnectUrl(system, a.apiKey, 'threads');
    await walkHandoff(link.connectUrl);
    const profileId = (await api(system, `/api/v1/connections/requests/${link.requestId}`, { key: a.apiKey })).body
      .profileId;

    const request = await api(system, `/api/v1/connections/requests/${link.requestId}`, { key: b.apiKey });
    const remove = await api(system, `/api/v1/connections/${profileId}`, { method: 'DELETE', key: b.apiKey });
    const options = await api(system, `/api/v1/connections/${profileId}/tiktok/options`, { key: b.apiKey });
    const listB = await api(system, '/api/v1/connections', { key: b.apiKey });
    const listA = await api(system, '/api/v1/connections', { key: a.apiKey });

    expect(request.status).toBe(404);
    expect(request.body.code).toBe('not_found');
    expect(remove.status).toBe(404);
    expect(remove.body.code).toBe('not_found');
    expect(options.status).toBe(404);
    expect(listB.body).toEqual({ accounts: [], count: 0 });
    expect(listA.body.accounts.map((p: { id: string }) => p.id)).toEqual([profileId]);
  });

  test('when a key is limited to some profiles, then it lists only those and may not disconnect the others', async () => {
    const owner = await system.seedAccount({ platforms: ['threads', 'instagram'] });
    const [threads, instagram] = owner.profiles;
    const { key } = await system.bus.rpc.call(Rpc.authIssueKey, {
      accountId: owner.accountId,
      userId: owner.userId,
      name: 'limited',
      scopes: ['account:read', 'account:write'],
      profileIds: [threads.id],
    });

    const list = await api(system, '/api/v1/connections', { key });
    const profiles = await api(system, '/api/v1/profiles', { key });
    const remove = await api(system, `/api/v1/connections/${instagram.id}`, { method: 'DELETE', key });

    expect(list.body.accounts.map((p: { id: string }) => p.id)).toEqual([threads.id]);
    expect(profiles.body).toEqual({
      profiles: [{ id: threads.id, platform: 'threads', handle: threads.handle, status: 'active' }],
      count: 1,
    });
    expect(remove.status).toBe(403);
    expect(remove.body.code).toBe('profile_scope_denied');
  });
});
