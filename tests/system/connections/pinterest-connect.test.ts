import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { api, connectProfile, credentialsOf, refreshCredentials, sandboxControl } from '../support/handoff';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('conn_pinterest');
  system = await startSystem(env, { TOKEN_REFRESH_DEDUP_MS: '0' });
  account = await system.seedAccount({ platforms: ['threads'] });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const pinterestTokenCalls = async () =>
  ((await sandboxControl(system, 'GET', '/requests?platform=pinterest')).body as { path: string }[]).filter((r) =>
    r.path.endsWith('/v5/oauth/token'),
  );

describe('connecting Pinterest', () => {
  test('when a person connects Pinterest through the handoff, then the profile holds the granted scopes and a 30-day token, and a refresh stores the new refresh token', async () => {
    const { profileId } = await connectProfile(system, account.apiKey, 'pinterest', { handle: 'pin.maker' });
    const listed = await api(system, '/api/v1/connections', { key: account.apiKey });
    const profile = listed.body.accounts.find((a: { id: string }) => a.id === profileId);
    expect(profile).toMatchObject({ platform: 'pinterest', handle: 'pin.maker', status: 'active' });
    const days = (Date.parse(profile.tokenExpiresAt) - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(30);

    const health = await api(system, `/api/v1/connections/${profileId}/health`, { key: account.apiKey });
    expect(health.body).toMatchObject({
      platform: 'pinterest',
      scopes: { granted: ['boards:read', 'pins:read', 'pins:write', 'user_accounts:read'], missing: [] },
      problems: [],
    });

    const before = await credentialsOf(system, account, profileId);
    const after = await refreshCredentials(system, account, profileId);
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.status).toBe('active');
    // The token endpoint was called with the app's credentials as HTTP Basic, continuous refresh on.
    const [exchange, refresh] = (await pinterestTokenCalls()) as unknown as { body: Record<string, string> }[];
    expect(exchange.body).toMatchObject({ grant_type: 'authorization_code', continuous_refresh: 'true' });
    expect(refresh.body).toMatchObject({ grant_type: 'refresh_token', continuous_refresh: 'true' });
    expect(refresh.body).not.toHaveProperty('client_secret');

    const boards = await api(system, `/api/v1/connections/${profileId}/pinterest/boards`, { key: account.apiKey });
    expect(boards).toMatchObject({ status: 200, body: { profileId, boards: [] } });
  });
});
