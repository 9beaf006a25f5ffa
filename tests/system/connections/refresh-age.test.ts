import { Client } from 'pg';
import { Rpc } from '@postbus/contracts';
import { createTestEnv, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { api, connectProfile, sandboxControl } from '../support/handoff';

describe('the refresher and young Instagram tokens', () => {
  let env: TestEnv;
  let system: RunningSystem;
  let account: SeededAccount;

  beforeAll(async () => {
    env = await createTestEnv('conn_refresh_age');
    system = await startSystem(env, { TOKEN_REFRESH_INTERVAL_MS: '200', TOKEN_REFRESH_AHEAD_SECONDS: '3600' });
    account = await system.seedAccount({ platforms: [] });
    // 30-minute tokens: due at once by the one-hour rule, on both platforms.
    for (const platform of ['instagram', 'tiktok'])
      await sandboxControl(system, 'POST', '/oauth/settings', { platform, accessTokenTtlSec: 1800 });
  });
  afterAll(async () => {
    await system?.stop();
    await env?.drop();
  });

  const credentials = (profileId: string) =>
    system.bus.rpc.call(Rpc.connectionsGetCredentials, { profileId, accountId: account.accountId });
  const instagramTokens = async () =>
    (await sandboxControl(system, 'GET', '/oauth/tokens?platform=instagram')).body.tokens.length;

  test('when an Instagram token under 24 hours old is due by its expiry, then the refresher leaves it alone while it refreshes others; once it is a day old, it is refreshed', async () => {
    const instagram = await connectProfile(system, account.apiKey, 'instagram');
    const tiktok = await connectProfile(system, account.apiKey, 'tiktok');
    const igToken = (await credentials(instagram.profileId)).accessToken;
    const issued = await instagramTokens();

    // Two TikTok refreshes: the job has looked at every due profile at least twice since.
    const seen = new Set([(await credentials(tiktok.profileId)).accessToken]);
    for (let i = 0; i < 2; i++) {
      seen.add(
        await waitFor(
          async () => {
            const t = (await credentials(tiktok.profileId)).accessToken;
            return seen.has(t) ? undefined : t;
          },
          { what: 'the job to refresh the TikTok token' },
        ),
      );
    }

    expect((await credentials(instagram.profileId)).accessToken).toBe(igToken);
    expect(await instagramTokens()).toBe(issued);
    expect(
      (await api(system, `/api/v1/connections/${instagram.profileId}/health`, { key: account.apiKey })).body.token
        .lastRefreshError,
    ).toBeNull();

    // The same token a day later (the platform's own clock is relaxed to match).
    const db = new Client({ connectionString: env.databaseUrl });
    await db.connect();
    await db.query(`UPDATE connections.profiles SET token_refreshed_at = now() - interval '25 hours' WHERE id = $1`, [
      instagram.profileId,
    ]);
    await db.end();
    await sandboxControl(system, 'POST', '/oauth/settings', { platform: 'instagram', refreshMinAgeSec: 0 });

    const refreshed = await waitFor(
      async () => {
        const t = (await credentials(instagram.profileId)).accessToken;
        return t === igToken ? undefined : t;
      },
      { what: 'the job to refresh the day-old Instagram token' },
    );
    expect(refreshed).not.toBe(igToken);
  });
});
