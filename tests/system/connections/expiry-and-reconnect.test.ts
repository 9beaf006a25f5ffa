import { createTestEnv, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import {
  connectProfile,
  credentialsOf,
  listedProfile,
  platformAccepts,
  platformUser,
  refreshCredentials,
  sandboxControl,
} from '../support/handoff';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('conn_expiry_reconnect');
  // Every on-demand refresh really refreshes, so consecutive ones can be told apart.
  system = await startSystem(env, { TOKEN_REFRESH_DEDUP_MS: '0' });
  account = await system.seedAccount({ platforms: [] });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const refresh = (profileId: string) => refreshCredentials(system, account, profileId);
const credentials = (profileId: string) => credentialsOf(system, account, profileId);
const listed = (profileId: string) => listedProfile(system, account, profileId);
const oauthSettings = (body: Record<string, unknown>) => sandboxControl(system, 'POST', '/oauth/settings', body);

describe('expiry', () => {
  test('when a TikTok access token has expired at the platform, then a refresh brings one it accepts again', async () => {
    await oauthSettings({ platform: 'tiktok', accessTokenTtlSec: 1 });
    try {
      const { profileId } = await connectProfile(system, account.apiKey, 'tiktok');
      const stale = await credentials(profileId);
      await waitFor(async () => ((await platformAccepts(system, 'tiktok', stale.accessToken)) ? undefined : true), {
        what: 'the token to expire',
      });

      const fresh = await refresh(profileId);

      expect(fresh.status).toBe('active');
      expect(await platformAccepts(system, 'tiktok', fresh.accessToken)).toBe(true);
    } finally {
      await oauthSettings({ platform: 'tiktok', accessTokenTtlSec: 7200 });
    }
  });

  test('when a Threads long-lived token expired before it was refreshed, then it cannot be refreshed and the profile needs reconnecting', async () => {
    await oauthSettings({ platform: 'threads', accessTokenTtlSec: 1 });
    try {
      const { profileId } = await connectProfile(system, account.apiKey, 'threads');
      const stale = await credentials(profileId);
      await waitFor(async () => ((await platformAccepts(system, 'threads', stale.accessToken)) ? undefined : true), {
        what: 'the token to expire',
      });

      const answer = await refresh(profileId);

      expect(answer.status).toBe('needs_reconnect');
      expect((await listed(profileId)).statusReason).toMatch(/^Threads refused/);
    } finally {
      await oauthSettings({ platform: 'threads', accessTokenTtlSec: 5_183_944 });
    }
  });
});

describe('reconnecting', () => {
  test('when a YouTube channel is connected again and Google sends no new refresh token, then the profile keeps its id and its refresh token still works', async () => {
    const channel = await platformUser(system, 'youtube', 'KeepMe');
    const first = await connectProfile(system, account.apiKey, 'youtube', { accounts: [channel.userId] });
    await oauthSettings({ platform: 'youtube', issueRefreshToken: false });
    try {
      const again = await connectProfile(system, account.apiKey, 'youtube', { accounts: [channel.userId] });
      const refreshed = await refresh(again.profileId);

      expect(again.profileId).toBe(first.profileId);
      expect(again.html).toContain('reconnected');
      expect(refreshed.status).toBe('active');
      expect(await platformAccepts(system, 'youtube', refreshed.accessToken)).toBe(true);
    } finally {
      await oauthSettings({ platform: 'youtube', issueRefreshToken: true });
    }
  });

  test('when a profile whose refresh token expired is reconnected, then it is active again under the same id', async () => {
    const user = await platformUser(system, 'tiktok', 'comeback');
    await oauthSettings({ platform: 'tiktok', refreshTokenTtlSec: 1 });
    let broken;
    let profileId: string;
    try {
      ({ profileId } = await connectProfile(system, account.apiKey, 'tiktok', { accounts: [user.userId] }));
      await new Promise((resolve) => setTimeout(resolve, 1_100)); // the refresh token's lifetime
      broken = await refresh(profileId);
    } finally {
      await oauthSettings({ platform: 'tiktok', refreshTokenTtlSec: 15_552_000 });
    }

    const again = await connectProfile(system, account.apiKey, 'tiktok', { accounts: [user.userId] });
    const profile = await listed(profileId);

    expect(broken.status).toBe('needs_reconnect');
    expect(again.profileId).toBe(profileId);
    expect(profile).toMatchObject({ status: 'active', statusReason: null });
    expect((await refresh(profileId)).status).toBe('active');
  });
});
