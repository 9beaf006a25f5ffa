import { Rpc } from '@postbus/contracts';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { api, connectProfile, newConnectUrl, sandboxControl, Visitor, hiddenFields } from '../support/handoff';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('conn_x');
  system = await startSystem(env, { TOKEN_REFRESH_DEDUP_MS: '0' });
  account = await system.seedAccount({ platforms: [] });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const credentials = (profileId: string) =>
  system.bus.rpc.call(Rpc.connectionsGetCredentials, { profileId, accountId: account.accountId });
const refresh = (profileId: string) =>
  system.bus.rpc.call(Rpc.connectionsRefreshCredentials, { profileId, accountId: account.accountId });
const health = (id: string) => api(system, `/api/v1/connections/${id}/health`, { key: account.apiKey });
/** What X answers to GET /2/users/me with this token. */
const xAccepts = async (token: string) =>
  (await fetch(`${system.sandboxUrl}/x/2/users/me`, { headers: { authorization: `Bearer ${token}` } })).status === 200;

describe('connecting an X account', () => {
  test('when a person approves Postbus on X, then the consent link carries PKCE and every scope, and the profile is stored with a rotating refresh token', async () => {
    const link = await newConnectUrl(system, account.apiKey, 'x');
    const visitor = new Visitor();
    const landing = await visitor.get(link.connectUrl);
    const go = await visitor.post(link.connectUrl, hiddenFields(landing.html));
    const consent = new URL(go.location!);

    expect(consent.pathname).toBe('/x/i/oauth2/authorize');
    expect(Object.fromEntries(consent.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'postbus-sandbox',
      scope: 'tweet.read tweet.write users.read media.write offline.access',
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
    });

    const { profileId } = await connectProfile(system, account.apiKey, 'x', { handle: 'x_studio' });
    const listed = (await api(system, '/api/v1/connections', { key: account.apiKey })).body.accounts.find(
      (a: { id: string }) => a.id === profileId,
    );
    expect(listed).toMatchObject({
      platform: 'x',
      handle: 'x_studio',
      profileUrl: 'https://x.com/x_studio',
      status: 'active',
    });
    const creds = await credentials(profileId);
    expect(await xAccepts(creds.accessToken)).toBe(true);
    expect(Date.parse(creds.tokenExpiresAt!) - Date.now()).toBeLessThanOrEqual(7200 * 1000);
  });

  test('when the X token is refreshed twice, then each answers a new token X accepts: the rotated refresh token was kept', async () => {
    const { profileId } = await connectProfile(system, account.apiKey, 'x');
    const before = await credentials(profileId);

    const first = await refresh(profileId);
    const second = await refresh(profileId);

    expect(first.accessToken).not.toBe(before.accessToken);
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(second.status).toBe('active');
    expect(await xAccepts(second.accessToken)).toBe(true);
  });
});

describe('the health of an X connection', () => {
  test('when the health is read, then the granted and needed scopes come back and the check says the app may call X', async () => {
    const { profileId } = await connectProfile(system, account.apiKey, 'x');
    const res = await health(profileId);

    expect(res.status).toBe(200);
    expect(res.body.scopes).toEqual({
      granted: ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access'],
      needed: ['tweet.read', 'tweet.write', 'users.read', 'media.write'],
      missing: [],
    });
    expect(res.body.quota).toMatchObject({
      source: 'GET /2/users/me',
      used: null,
      reason: expect.stringMatching(/^X answered GET \/2\/users\/me/),
    });
  });

  test("when the connecting app's usage cap is spent, then the health says the app's own X plan is the limit", async () => {
    const { profileId } = await connectProfile(system, account.apiKey, 'x');
    await sandboxControl(system, 'POST', '/faults', {
      platform: 'x',
      mode: 'error',
      operation: 'read',
      reason: 'UsageCapExceeded',
    });

    const res = await health(profileId);

    expect(res.body.quota.reason).toMatch(/your own X developer app's plan \(UsageCapExceeded: Usage cap exceeded/);
  });
});
