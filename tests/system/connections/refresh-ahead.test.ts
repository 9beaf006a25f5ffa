import { createTestEnv, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { connectProfile, credentialsOf, listedProfile, sandboxControl } from '../support/handoff';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('conn_ahead');
  // Tokens with less than an hour left are due; the job looks every 200 ms.
  system = await startSystem(env, { TOKEN_REFRESH_INTERVAL_MS: '200', TOKEN_REFRESH_AHEAD_SECONDS: '3600' });
  account = await system.seedAccount({ platforms: [] });
  // TikTok tokens of 30 minutes are due as soon as they are issued; Instagram's 60 days are not.
  await sandboxControl(system, 'POST', '/oauth/settings', { platform: 'tiktok', accessTokenTtlSec: 1800 });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const credentials = (profileId: string) => credentialsOf(system, account, profileId);
const listed = (profileId: string) => listedProfile(system, account, profileId);

/** Waits until the stored token differs from every one in `seen`, and answers it. */
function nextToken(profileId: string, seen: Set<string>) {
  return waitFor(
    async () => {
      const c = await credentials(profileId);
      return seen.has(c.accessToken) ? undefined : c;
    },
    { what: 'the job to refresh the token' },
  );
}

describe('refreshing ahead of expiry', () => {
  test('when a token is close to expiry, then the job refreshes it again and again with the rotated refresh token, while a token far from expiry is left alone', async () => {
    const tiktok = await connectProfile(system, account.apiKey, 'tiktok');
    const instagram = await connectProfile(system, account.apiKey, 'instagram');
    const igToken = (await credentials(instagram.profileId)).accessToken;
    const seen = new Set([(await credentials(tiktok.profileId)).accessToken]);

    const second = await nextToken(tiktok.profileId, seen);
    seen.add(second.accessToken);
    const third = await nextToken(tiktok.profileId, seen);

    expect(third.status).toBe('active');
    expect((await listed(tiktok.profileId)).tokenExpiresAt).toBe(third.tokenExpiresAt);
    expect((await credentials(instagram.profileId)).accessToken).toBe(igToken);
  });

  test('when the platform refuses the refresh for good, then the job marks the profile needs_reconnect with the reason', async () => {
    const healthy = await connectProfile(system, account.apiKey, 'tiktok');
    const { profileId } = await connectProfile(system, account.apiKey, 'tiktok');
    await sandboxControl(system, 'POST', `/users/${(await credentials(profileId)).platformUserId}/revoke`);

    const profile = await waitFor(
      async () => {
        const p = await listed(profileId);
        return p.status === 'needs_reconnect' ? p : undefined;
      },
      { what: 'the profile to need reconnecting' },
    );

    expect(profile.statusReason).toMatch(/^TikTok refused the authorization/);
    expect((await listed(healthy.profileId)).status).toBe('active');
  });

  test('when the platform is down for a while, then the profile stays active and is refreshed once it is back', async () => {
    const { profileId } = await connectProfile(system, account.apiKey, 'tiktok');
    const before = (await credentials(profileId)).accessToken;
    // Enough failures for every TikTok profile the job refreshes during the next runs.
    await sandboxControl(system, 'POST', '/oauth/faults', {
      platform: 'tiktok',
      operation: 'token',
      status: 503,
      count: 20,
    });

    const after = await nextToken(profileId, new Set([before]));

    expect(after.status).toBe('active');
    expect((await listed(profileId)).statusReason).toBeNull();
  });
});
