import { INSTAGRAM_SCOPES, TIKTOK_SCOPES } from '@postbus/platforms';
import { Rpc } from '@postbus/contracts';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { callTool } from '../support/mcp-client';
import { api, connectProfile, platformUser, sandboxControl } from '../support/handoff';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let other: SeededAccount;
let instagramId: string;
let tiktokId: string;

beforeAll(async () => {
  env = await createTestEnv('conn_health');
  system = await startSystem(env, { TOKEN_REFRESH_DEDUP_MS: '0' });
  account = await system.seedAccount({ platforms: ['threads'] });
  other = await system.seedAccount({ platforms: [] });
  ({ profileId: instagramId } = await connectProfile(system, account.apiKey, 'instagram'));
  ({ profileId: tiktokId } = await connectProfile(system, account.apiKey, 'tiktok'));
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const health = (id: string, key = account.apiKey) => api(system, `/api/v1/connections/${id}/health`, { key });

/**
 * A TikTok profile whose person later took video.publish back in TikTok's settings: connected in
 * full (a grant without it is refused at connect), narrowed, then refreshed, so the granted
 * scopes Postbus stored are what TikTok now answers.
 */
async function tiktokProfileThatLostPublishing(): Promise<string> {
  const user = await platformUser(system, 'tiktok', `narrowed_${Math.random().toString(36).slice(2, 8)}`);
  const { profileId } = await connectProfile(system, account.apiKey, 'tiktok', { accounts: [user.userId] });
  const narrowed = await sandboxControl(system, 'POST', '/oauth/scopes', {
    userId: user.userId,
    scopes: ['user.info.basic', 'video.list'],
  });
  if (narrowed.status !== 200) throw new Error(`sandbox scopes: ${narrowed.status} ${JSON.stringify(narrowed.body)}`);
  await system.bus.rpc.call(Rpc.connectionsRefreshCredentials, { profileId, accountId: account.accountId });
  return profileId;
}

/** One MCP tools/call over the agent endpoint, with the account's key; answers the tool result. */
const toolResult = async (name: string, args: Record<string, unknown>, key = account.apiKey) =>
  (await callTool(system.baseUrl, name, args, key)).message.result;

describe('connection health', () => {
  test("when an Instagram profile's health is read, then its token state, the granted and needed scopes and Instagram's own quota come back, and nothing is wrong", async () => {
    const res = await health(instagramId);

    expect(res.status).toBe(200);
    const h = res.body;
    expect(h).toMatchObject({
      profileId: instagramId,
      platform: 'instagram',
      status: 'active',
      statusReason: null,
      tiktok: null,
      problems: [],
    });
    expect(h.token).toMatchObject({ expired: false, lastRefreshError: null, lastRefreshErrorAt: null });
    const connected = Date.parse(h.token.lastRefreshAt);
    const expires = Date.parse(h.token.expiresAt);
    // Renewed at a fifth of its life before expiry, and never before Instagram's 24 hours.
    expect(Math.abs(Date.parse(h.token.nextRefreshAt) - (expires - (expires - connected) / 5))).toBeLessThanOrEqual(1);
    expect(h.scopes).toEqual({
      granted: INSTAGRAM_SCOPES,
      needed: ['instagram_business_basic', 'instagram_business_content_publish'],
      missing: [],
    });
    expect(h.quota).toMatchObject({ source: 'content_publishing_limit', used: 0, windowSeconds: 86_400, reason: null });
    expect(h.quota.remaining).toBe(h.quota.total);
    expect(h.quota.total).toBeGreaterThan(0);
  });

  test('when a TikTok profile is checked against an unaudited client, then the audit mode, SELF_ONLY and the private-account rule are reported, and the quota says why it is unknown', async () => {
    const res = await health(tiktokId);

    expect(res.status).toBe(200);
    expect(res.body.tiktok).toEqual({
      clientAudited: false,
      privacyLevelOptions: ['SELF_ONLY'],
      accountPrivate: null,
      selfOnly: true,
    });
    expect(res.body.scopes).toMatchObject({ granted: TIKTOK_SCOPES, missing: [] });
    expect(res.body.quota).toMatchObject({
      source: null,
      remaining: null,
      reason: expect.stringContaining('TikTok does not report'),
    });
    expect(res.body.problems).toEqual([expect.stringContaining('The TikTok app is unaudited')]);
  });

  test('when the person later granted fewer scopes than publishing needs, then the missing ones are listed with what to do', async () => {
    const profileId = await tiktokProfileThatLostPublishing();

    const res = await health(profileId);

    expect(res.body.scopes).toEqual({
      granted: ['user.info.basic', 'video.list'],
      needed: ['user.info.basic', 'video.publish'],
      missing: ['video.publish'],
    });
    expect(res.body.problems).toContainEqual(expect.stringContaining('lacks video.publish'));
  });

  test('when a refresh fails because Instagram refreshes only day-old tokens, then the report shows the refusal and the profile stays active', async () => {
    const { profileId } = await connectProfile(system, account.apiKey, 'instagram');
    await expect(
      system.bus.rpc.call(Rpc.connectionsRefreshCredentials, { profileId, accountId: account.accountId }),
    ).rejects.toMatchObject({ code: 'service_unavailable' });

    const res = await health(profileId);

    expect(res.body.status).toBe('active');
    expect(res.body.token.lastRefreshError).toContain('24 hours');
    expect(Date.parse(res.body.token.lastRefreshErrorAt)).toBeGreaterThanOrEqual(
      Date.parse(res.body.token.lastRefreshAt),
    );
    expect(res.body.problems).toEqual([expect.stringContaining('The last token refresh failed')]);
  });

  test("when another account's profile, or one outside a restricted key's profiles, is asked for, then 404 not_found as for a missing one", async () => {
    const { key: narrow } = await system.bus.rpc.call(Rpc.authIssueKey, {
      accountId: account.accountId,
      userId: account.userId,
      name: 'threads only',
      scopes: ['account:read'],
      profileIds: [account.profiles[0].id],
    });

    const theirs = await health(instagramId, other.apiKey);
    const restricted = await health(instagramId, narrow);
    const missing = await health('prf_missing');
    const allowed = await health(account.profiles[0].id, narrow);

    for (const res of [theirs, restricted, missing]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    expect(theirs.body.error).toBe(`No connected account ${instagramId}.`);
    expect(allowed.status).toBe(200);
    expect(allowed.body.quota.source).toBe('threads_publishing_limit');
  });

  test('when svc_get_connection_health is called, then it answers what its REST twin answers; for another account it is an error', async () => {
    const rest = await health(tiktokId);
    const tool = await toolResult('svc_get_connection_health', { profileId: tiktokId });
    const foreign = await toolResult('svc_get_connection_health', { profileId: tiktokId }, other.apiKey);

    expect(tool.isError).toBeFalsy();
    expect({ ...tool.structuredContent, checkedAt: null }).toEqual({ ...rest.body, checkedAt: null });
    expect(foreign.isError).toBe(true);
    expect(foreign.content[0].text).toContain('not_found');
  });
});

describe('validate uses the same facts', () => {
  const validate = (body: unknown) =>
    api(system, '/api/v1/posts/validate', { method: 'POST', key: account.apiKey, body });
  const tiktokPost = (privacyLevel: string) => ({
    platforms: ['tiktok'],
    profileIds: [tiktokId],
    title: 't',
    caption: 'c',
    mediaUrls: ['https://cdn.example/v.mp4'],
    platformMeta: { tiktok: { privacyLevel } },
  });

  test('when a TikTok post asks for PUBLIC_TO_EVERYONE through an unaudited client, then a problem on the privacy level; SELF_ONLY has none', async () => {
    const publicPost = await validate(tiktokPost('PUBLIC_TO_EVERYONE'));
    const privatePost = await validate(tiktokPost('SELF_ONLY'));

    expect(publicPost.status).toBe(200);
    expect(publicPost.body.valid).toBe(false);
    expect(publicPost.body.problems).toContainEqual({
      code: 'validation_error',
      platform: 'tiktok',
      field: 'platformMeta.tiktok.privacyLevel',
      message: expect.stringContaining('unaudited'),
    });
    expect(
      privatePost.body.problems.filter((p: { field?: string }) => p.field === 'platformMeta.tiktok.privacyLevel'),
    ).toEqual([]);
  });

  test('when a profile has not granted a publishing scope, then a problem names it', async () => {
    const profileId = await tiktokProfileThatLostPublishing();

    const res = await validate({ ...tiktokPost('SELF_ONLY'), profileIds: [profileId] });

    expect(res.body.valid).toBe(false);
    expect(res.body.problems).toContainEqual({
      code: 'invalid_profile_ids',
      platform: 'tiktok',
      field: 'profileIds',
      message: expect.stringContaining('video.publish'),
    });
  });
});
