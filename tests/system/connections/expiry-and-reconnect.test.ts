import { waitFor } from '@postbus/testing';
import { useSystem } from '../support/use-system';
import { connectProfile, platformAccepts, platformUser, profileCalls, sandboxControl } from '../support/handoff';

// Every on-demand refresh really refreshes, so consecutive ones can be told apart.
const ctx = useSystem('conn_expiry_reconnect', { env: { TOKEN_REFRESH_DEDUP_MS: '0' }, account: { platforms: [] } });

const { refresh, credentials, listed } = profileCalls(ctx);
const oauthSettings = (body: Record<string, unknown>) => sandboxControl(ctx.system, 'POST', '/oauth/settings', body);

describe('expiry', () => {
  test('when a TikTok access token has expired at the platform, then a refresh brings one it accepts again', async () => {
    await oauthSettings({ platform: 'tiktok', accessTokenTtlSec: 1 });
    try {
      const { profileId } = await connectProfile(ctx.system, ctx.account.apiKey, 'tiktok');
      const stale = await credentials(profileId);
      await waitFor(async () => ((await platformAccepts(ctx.system, 'tiktok', stale.accessToken)) ? undefined : true), {
        what: 'the token to expire',
      });

      const fresh = await refresh(profileId);

      expect(fresh.status).toBe('active');
      expect(await platformAccepts(ctx.system, 'tiktok', fresh.accessToken)).toBe(true);
    } finally {
      await oauthSettings({ platform: 'tiktok', accessTokenTtlSec: 7200 });
    }
  });

  test('when a Threads long-lived token expired before it was refreshed, then it cannot be refreshed and the profile needs reconnecting', async () => {
    await oauthSettings({ platform: 'threads', accessTokenTtlSec: 1 });
    try {
      const { profileId } = await connectProfile(ctx.system, ctx.account.apiKey, 'threads');
      const stale = await credentials(profileId);
      await waitFor(
        async () => ((await platformAccepts(ctx.system, 'threads', stale.accessToken)) ? undefined : true),
        {
          what: 'the token to expire',
        },
      );

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
    const channel = await platformUser(ctx.system, 'youtube', 'KeepMe');
    const first = await connectProfile(ctx.system, ctx.account.apiKey, 'youtube', { accounts: [channel.userId] });
    await oauthSettings({ platform: 'youtube', issueRefreshToken: false });
    try {
      const again = await connectProfile(ctx.system, ctx.account.apiKey, 'youtube', { accounts: [channel.userId] });
      const refreshed = await refresh(again.profileId);

      expect(again.profileId).toBe(first.profileId);
      expect(again.html).toContain('reconnected');
      expect(refreshed.status).toBe('active');
      expect(await platformAccepts(ctx.system, 'youtube', refreshed.accessToken)).toBe(true);
    } finally {
      await oauthSettings({ platform: 'youtube', issueRefreshToken: true });
    }
  });

  test('when a profile whose refresh token expired is reconnected, then it is active again under the same id', async () => {
    const user = await platformUser(ctx.system, 'tiktok', 'comeback');
    await oauthSettings({ platform: 'tiktok', refreshTokenTtlSec: 1 });
    let broken;
    let profileId: string;
    try {
      ({ profileId } = await connectProfile(ctx.system, ctx.account.apiKey, 'tiktok', { accounts: [user.userId] }));
      await new Promise((resolve) => setTimeout(resolve, 1_100)); // the refresh token's lifetime
      broken = await refresh(profileId);
    } finally {
      await oauthSettings({ platform: 'tiktok', refreshTokenTtlSec: 15_552_000 });
    }

    const again = await connectProfile(ctx.system, ctx.account.apiKey, 'tiktok', { accounts: [user.userId] });
    const profile = await listed(profileId);

    expect(broken.status).toBe('needs_reconnect');
    expect(again.profileId).toBe(profileId);
    expect(profile).toMatchObject({ status: 'active', statusReason: null });
    expect((await refresh(profileId)).status).toBe('active');
  });
});
