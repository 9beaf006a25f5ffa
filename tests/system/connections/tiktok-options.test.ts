import { Rpc } from '@postbus/contracts';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { callTool } from '../support/mcp-client';
import { api, connectProfile, sandboxControl } from '../support/handoff';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let tiktokId: string;

beforeAll(async () => {
  env = await createTestEnv('conn_tiktok');
  system = await startSystem(env, { TOKEN_REFRESH_DEDUP_MS: '0' });
  account = await system.seedAccount({ platforms: ['threads'] });
  // An audited client: creator_info offers every level (an unaudited one offers SELF_ONLY only, see connection-health).
  await sandboxControl(system, 'POST', '/tiktok/audit', { unaudited: false });
  ({ profileId: tiktokId } = await connectProfile(system, account.apiKey, 'tiktok', { handle: 'creator.one' }));
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const options = (id: string, key = account.apiKey) => api(system, `/api/v1/connections/${id}/tiktok/options`, { key });

/** One MCP tools/call over the agent endpoint, with the account's key; answers the tool result. */
const toolResult = async (name: string, args: Record<string, unknown>) =>
  (await callTool(system.baseUrl, name, args, account.apiKey)).message.result;

describe('TikTok posting options', () => {
  test("when a TikTok profile's options are read, then creator_info's privacy levels, switches and maximum duration come back", async () => {
    const res = await options(tiktokId);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      profileId: tiktokId,
      creatorUsername: 'creator.one',
      creatorNickname: 'creator.one',
      privacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
      commentDisabled: false,
      duetDisabled: false,
      stitchDisabled: false,
      maxVideoPostDurationSec: 600,
    });
  });

  test('when the profile is not a TikTok one, then 400 validation_error; when it does not exist, 404 not_found', async () => {
    const threads = await options(account.profiles[0].id);
    const missing = await options('prf_missing');

    expect(threads.status).toBe(400);
    expect(threads.body.code).toBe('validation_error');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
  });

  test('when TikTok is failing (5xx), then 503 service_unavailable with Retry-After', async () => {
    await sandboxControl(system, 'POST', '/faults', {
      platform: 'tiktok',
      mode: 'error',
      operation: 'read',
      status: 500,
      count: 1,
    });

    const res = await fetch(`${system.baseUrl}/api/v1/connections/${tiktokId}/tiktok/options`, {
      headers: { authorization: `Bearer ${account.apiKey}` },
    });

    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(((await res.json()) as { code: string }).code).toBe('service_unavailable');
  });

  test('when the stored access token has expired, then it is refreshed and the options are read with the new one', async () => {
    await sandboxControl(system, 'POST', '/oauth/settings', { platform: 'tiktok', accessTokenTtlSec: 1 });
    const { profileId } = await connectProfile(system, account.apiKey, 'tiktok');
    await sandboxControl(system, 'POST', '/oauth/settings', { platform: 'tiktok', accessTokenTtlSec: 7200 });
    const stale = await system.bus.rpc.call(Rpc.connectionsGetCredentials, { profileId, accountId: account.accountId });
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // the token's lifetime

    const res = await options(profileId);
    const fresh = await system.bus.rpc.call(Rpc.connectionsGetCredentials, { profileId, accountId: account.accountId });

    expect(res.status).toBe(200);
    expect(fresh.accessToken).not.toBe(stale.accessToken);
  });

  test('when TikTok refuses the token and its refresh for good, then 400 invalid_profile_ids asking for a reconnect', async () => {
    const { profileId } = await connectProfile(system, account.apiKey, 'tiktok');
    const { platformUserId } = await system.bus.rpc.call(Rpc.connectionsGetCredentials, {
      profileId,
      accountId: account.accountId,
    });
    await sandboxControl(system, 'POST', `/users/${platformUserId}/revoke`);

    const res = await options(profileId);

    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_profile_ids');
    expect(res.body.error).toMatch(/reconnect/);
  });
});

describe('the agent tools', () => {
  test('when svc_get_tiktok_posting_options is called, then it answers what its REST twin answers', async () => {
    const rest = await options(tiktokId);

    const result = await toolResult('svc_get_tiktok_posting_options', { profileId: tiktokId });

    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(rest.body);
  });

  test('when svc_list_connected_social_accounts and svc_list_profiles are called, then they list the accounts as GET /connections and /profiles do', async () => {
    const accounts = await api(system, '/api/v1/connections', { key: account.apiKey });
    const profiles = await api(system, '/api/v1/profiles', { key: account.apiKey });

    const listed = await toolResult('svc_list_connected_social_accounts', {});
    const brief = await toolResult('svc_list_profiles', {});

    expect(listed.structuredContent).toEqual(accounts.body);
    expect(brief.structuredContent).toEqual(profiles.body);
    expect(brief.structuredContent.profiles).toContainEqual({
      id: tiktokId,
      platform: 'tiktok',
      handle: 'creator.one',
      status: 'active',
    });
  });
});
