import { AppError } from '@postbus/contracts';
import { useSystem } from '../support/use-system';
import { api, connectProfile, platformAccepts, platformUser, profileCalls, sandboxControl } from '../support/handoff';

// Every on-demand refresh really refreshes, so consecutive ones can be told apart.
const ctx = useSystem('conn_refresh', { env: { TOKEN_REFRESH_DEDUP_MS: '0' }, account: { platforms: [] } });

const { refresh, credentials, listed } = profileCalls(ctx);

async function errorOf(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected a failure');
}

describe('refresh on demand (the publisher after a refused token)', () => {
  test('when a TikTok token is refreshed twice, then each answers a new token the platform accepts: the rotated refresh token was kept', async () => {
    const { profileId } = await connectProfile(ctx.system, ctx.account.apiKey, 'tiktok');
    const before = await credentials(profileId);

    const first = await refresh(profileId);
    const second = await refresh(profileId);

    expect(first).toMatchObject({
      profileId,
      platform: 'tiktok',
      status: 'active',
      tokenExpiresAt: expect.any(String),
    });
    expect(first.accessToken).not.toBe(before.accessToken);
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(second.status).toBe('active');
    expect(await platformAccepts(ctx.system, 'tiktok', second.accessToken)).toBe(true);
    expect((await credentials(profileId)).accessToken).toBe(second.accessToken);
  });

  test.each([['instagram'], ['threads']])(
    'when a %s long-lived token is refreshed, then a new 60-day token is stored',
    async (platform) => {
      // The platform refreshes only day-old tokens; this one is refreshed at once.
      await sandboxControl(ctx.system, 'POST', '/oauth/settings', { platform, refreshMinAgeSec: 0 });
      const { profileId } = await connectProfile(ctx.system, ctx.account.apiKey, platform);
      const before = await credentials(profileId);

      const after = await refresh(profileId);

      expect(after.accessToken).not.toBe(before.accessToken);
      expect(await platformAccepts(ctx.system, platform, after.accessToken)).toBe(true);
      expect(Date.parse(after.tokenExpiresAt!) - Date.now()).toBeGreaterThan(59 * 86_400_000);
      expect((await listed(profileId)).tokenExpiresAt).toBe(after.tokenExpiresAt);
    },
  );

  test('when a Facebook Page is refreshed, then its Page token is read again with the stored user token and does not expire', async () => {
    const page = await platformUser(ctx.system, 'facebook', 'refresh_page');
    const { profileId } = await connectProfile(ctx.system, ctx.account.apiKey, 'facebook', { accounts: [page.userId] });

    const after = await refresh(profileId);

    expect(after).toMatchObject({ accessToken: page.accessToken, status: 'active', tokenExpiresAt: null });
  });

  test('when the platform is down (5xx), then service_unavailable, the profile stays active, and a later refresh works', async () => {
    const { profileId } = await connectProfile(ctx.system, ctx.account.apiKey, 'youtube');
    await sandboxControl(ctx.system, 'POST', '/oauth/faults', {
      platform: 'youtube',
      operation: 'token',
      status: 503,
      count: 2,
    });

    const err = await errorOf(refresh(profileId));
    const during = await listed(profileId);
    const later = await refresh(profileId);

    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('service_unavailable');
    expect(err.message).toMatch(/YouTube/);
    expect(during).toMatchObject({ status: 'active', statusReason: null });
    expect(later.status).toBe('active');
  });

  test('when the platform revoked the grant, then the profile needs reconnecting, says why, and new posts to it are refused', async () => {
    const user = await platformUser(ctx.system, 'tiktok', 'revoked_one');
    const { profileId } = await connectProfile(ctx.system, ctx.account.apiKey, 'tiktok', { accounts: [user.userId] });
    await sandboxControl(ctx.system, 'POST', `/users/${user.userId}/revoke`);

    const answer = await refresh(profileId);
    const profile = await listed(profileId);
    const post = await api(ctx.system, '/api/v1/posts', {
      method: 'POST',
      key: ctx.account.apiKey,
      body: {
        platforms: ['tiktok'],
        title: 't',
        caption: 'c',
        mediaUrls: ['https://example.com/v.mp4'],
        profileIds: [profileId],
        platformMeta: { tiktok: { privacyLevel: 'SELF_ONLY' } },
      },
    });

    expect(answer.status).toBe('needs_reconnect');
    expect((await credentials(profileId)).status).toBe('needs_reconnect');
    expect(profile).toMatchObject({
      status: 'needs_reconnect',
      statusReason: expect.stringMatching(/TikTok refused .*reconnected/),
    });
    expect(post.status).toBe(400);
    expect(post.body.code).toBe('invalid_profile_ids');
  });

  test('when a profile is unknown to the account, then not_found', async () => {
    const err = await errorOf(refresh('prf_nothing'));

    expect(err.code).toBe('not_found');
  });
});
