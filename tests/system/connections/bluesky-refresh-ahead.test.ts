import { Rpc } from '@postbus/contracts';
import { aJpeg, createTestEnv, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { api, hiddenFields, newConnectUrl, platformUser, sandboxControl, Visitor } from '../support/handoff';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('conn_bsky_ahead');
  // Every Bluesky access JWT (2 hours) is within this window: the refresher renews it at its next pass.
  system = await startSystem(env, { TOKEN_REFRESH_AHEAD_SECONDS: '7300', TOKEN_REFRESH_INTERVAL_MS: '300' });
  account = await system.seedAccount({ platforms: [] });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

describe('a Bluesky session near its expiry', () => {
  test('when the access JWT is due for renewal, then the refresher renews it with refreshSession before it expires, and the new one is accepted', async () => {
    const user = await platformUser(system, 'bluesky', 'ahead_sky');
    const link = await newConnectUrl(system, account.apiKey, 'bluesky');
    const visitor = new Visitor();
    const landing = await visitor.get(link.connectUrl);
    await visitor.post(link.connectUrl, {
      ...hiddenFields(landing.html),
      identifier: 'ahead-sky.bsky.social',
      appPassword: user.accessToken,
    });
    const { profileId } = (await api(system, `/api/v1/connections/requests/${link.requestId}`, { key: account.apiKey }))
      .body as { profileId: string };
    const first = await system.bus.rpc.call(Rpc.connectionsGetCredentials, { profileId, accountId: account.accountId });

    const renewed = await waitFor(
      async () => {
        const now = await system.bus.rpc.call(Rpc.connectionsGetCredentials, {
          profileId,
          accountId: account.accountId,
        });
        return now.accessToken !== first.accessToken ? now : undefined;
      },
      { timeoutMs: 15_000, what: 'the refresher to renew the Bluesky session' },
    );

    const calls = (await sandboxControl(system, 'GET', '/requests?platform=bluesky')).body as { path: string }[];
    const upload = await fetch(`${system.sandboxUrl}/bluesky/xrpc/com.atproto.repo.uploadBlob`, {
      method: 'POST',
      headers: { authorization: `Bearer ${renewed.accessToken}`, 'content-type': 'image/jpeg' },
      body: aJpeg(2048),
    });
    expect(calls.map((c) => c.path)).toContain('/bluesky/xrpc/com.atproto.server.refreshSession');
    expect(renewed.status).toBe('active');
    expect(upload.status).toBe(200);
  });
});
