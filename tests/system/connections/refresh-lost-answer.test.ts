import { AppError } from '@postbus/contracts';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { connectProfile, listedProfile, refreshCredentials, sandboxControl } from '../support/handoff';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('conn_refresh_lost');
  // Every on-demand refresh really refreshes; connections retries a transient failure once (250 ms) within a call.
  system = await startSystem(env, { TOKEN_REFRESH_DEDUP_MS: '0' });
  account = await system.seedAccount({ platforms: [] });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const refresh = (profileId: string) => refreshCredentials(system, account, profileId);
const listed = (profileId: string) => listedProfile(system, account, profileId);
const refreshTokensIssued = async () =>
  (await sandboxControl(system, 'GET', '/oauth/tokens?platform=tiktok')).body.tokens.filter(
    (t: { kind: string }) => t.kind === 'refresh',
  ).length;

async function errorOf(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected a failure');
}

describe('a TikTok refresh whose answer is lost (rotating refresh tokens)', () => {
  afterEach(() => sandboxControl(system, 'POST', '/oauth/settings', { platform: 'tiktok', rotateRefreshTokens: true }));

  test('when TikTok rotated the token but the answer was lost, then the refresh is not sent again blindly; the next refusal says the answer was lost, not that access was revoked', async () => {
    const { profileId } = await connectProfile(system, account.apiKey, 'tiktok');
    const issuedBefore = await refreshTokensIssued();
    await sandboxControl(system, 'POST', '/oauth/faults', { platform: 'tiktok', operation: 'token', dropAnswer: true });

    const lost = await errorOf(refresh(profileId));
    const during = await listed(profileId);
    const rotated = (await refreshTokensIssued()) - issuedBefore;
    const next = await refresh(profileId);
    const after = await listed(profileId);

    expect(lost).toBeInstanceOf(AppError);
    expect(lost.code).toBe('service_unavailable');
    expect(rotated).toBe(1);
    expect(during).toMatchObject({ status: 'active', statusReason: null });
    expect(next.status).toBe('needs_reconnect');
    expect(after.statusReason).toMatch(/answer was lost/);
    expect(after.statusReason).toMatch(/did not revoke access; reconnect the profile/);
  });

  test('when the lost request had not rotated the token, then the next refresh works with the stored one and the profile stays active', async () => {
    await sandboxControl(system, 'POST', '/oauth/settings', { platform: 'tiktok', rotateRefreshTokens: false });
    const { profileId } = await connectProfile(system, account.apiKey, 'tiktok');
    await sandboxControl(system, 'POST', '/oauth/faults', { platform: 'tiktok', operation: 'token', dropAnswer: true });

    const lost = await errorOf(refresh(profileId));
    const next = await refresh(profileId);

    expect(lost.code).toBe('service_unavailable');
    expect(next.status).toBe('active');
    expect((await listed(profileId)).status).toBe('active');
  });

  test('when YouTube (which keeps its refresh token) loses an answer, then the refresh is tried again at once and succeeds', async () => {
    const { profileId } = await connectProfile(system, account.apiKey, 'youtube');
    await sandboxControl(system, 'POST', '/oauth/faults', {
      platform: 'youtube',
      operation: 'token',
      dropAnswer: true,
    });

    const answer = await refresh(profileId);

    expect(answer.status).toBe('active');
  });
});
