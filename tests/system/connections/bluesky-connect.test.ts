import { Rpc } from '@postbus/contracts';
import { aJpeg, createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { api, hiddenFields, newConnectUrl, platformUser, sandboxControl, Visitor } from '../support/handoff';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('conn_bluesky');
  system = await startSystem(env, { TOKEN_REFRESH_DEDUP_MS: '0' });
  account = await system.seedAccount({ platforms: [] });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const credentials = (profileId: string) =>
  system.bus.rpc.call(Rpc.connectionsGetCredentials, { profileId, accountId: account.accountId });
const refresh = (profileId: string) =>
  system.bus.rpc.call(Rpc.connectionsRefreshCredentials, { profileId, accountId: account.accountId });
const jwtClaims = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8')) as {
    sub: string;
    exp: number;
    scope: string;
  };

/** Connects a new sandbox Bluesky account through the handoff page with its app password. */
async function connectBluesky(
  handle: string,
): Promise<{ profileId: string; user: { userId: string; accessToken: string } }> {
  const user = await platformUser(system, 'bluesky', handle);
  const link = await newConnectUrl(system, account.apiKey, 'bluesky');
  const visitor = new Visitor();
  const landing = await visitor.get(link.connectUrl);
  const answer = await visitor.post(link.connectUrl, {
    ...hiddenFields(landing.html),
    identifier: `${handle.replace(/_/g, '-')}.bsky.social`,
    appPassword: user.accessToken,
  });
  expect(answer.status).toBe(200);
  const state = await api(system, `/api/v1/connections/requests/${link.requestId}`, { key: account.apiKey });
  return { profileId: state.body.profileId, user };
}

/** Whether the sandbox's PDS takes this access JWT for a write. */
async function pdsAccepts(accessJwt: string): Promise<boolean> {
  const res = await fetch(`${system.sandboxUrl}/bluesky/xrpc/com.atproto.repo.uploadBlob`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessJwt}`, 'content-type': 'image/jpeg' },
    body: aJpeg(2048),
  });
  return res.status === 200;
}

describe('a Bluesky profile connected with an app password', () => {
  test("when connected, then the profile holds a session for the account's DID expiring with its access JWT, and its health says how Bluesky limits posting", async () => {
    const { profileId } = await connectBluesky('health_sky');

    const creds = await credentials(profileId);
    const health = await api(system, `/api/v1/connections/${profileId}/health`, { key: account.apiKey });

    const claims = jwtClaims(creds.accessToken);
    expect(creds).toMatchObject({
      platform: 'bluesky',
      platformUserId: claims.sub,
      handle: 'health-sky.bsky.social',
      status: 'active',
      tokenExpiresAt: new Date(claims.exp * 1000).toISOString(),
    });
    expect(claims.sub).toMatch(/^did:plc:/);
    expect(await pdsAccepts(creds.accessToken)).toBe(true);
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      platform: 'bluesky',
      status: 'active',
      token: { expiresAt: creds.tokenExpiresAt, expired: false, nextRefreshAt: expect.any(String) },
      scopes: { needed: [] },
      quota: { reason: expect.stringMatching(/5,000 write points an hour/) },
      problems: [],
    });
  });

  test('when the session is refreshed, then refreshSession gives a new access JWT the PDS takes, and the next refresh uses the new refresh JWT', async () => {
    const { profileId } = await connectBluesky('refresh_sky');
    const before = await credentials(profileId);

    const first = await refresh(profileId);
    const second = await refresh(profileId);

    expect(first.accessToken).not.toBe(before.accessToken);
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(await pdsAccepts(second.accessToken)).toBe(true);
    const calls = (await sandboxControl(system, 'GET', '/requests?platform=bluesky')).body as { path: string }[];
    expect(calls.filter((c) => c.path.endsWith('/com.atproto.server.refreshSession')).length).toBeGreaterThanOrEqual(2);
  });

  test("when the app password is revoked, then the refresh is refused and the profile needs reconnecting with Bluesky's reason", async () => {
    const { profileId, user } = await connectBluesky('revoked_sky');
    await sandboxControl(system, 'POST', `/users/${user.userId}/revoke`);

    const failed = await refresh(profileId).catch((err: unknown) => err);

    const listed = (await api(system, '/api/v1/connections', { key: account.apiKey })).body.accounts.find(
      (a: { id: string }) => a.id === profileId,
    );
    expect(failed).toBeDefined();
    expect(listed).toMatchObject({ status: 'needs_reconnect' });
    const health = await api(system, `/api/v1/connections/${profileId}/health`, { key: account.apiKey });
    expect(health.body.statusReason).toMatch(
      /Bluesky refused to renew the session \(ExpiredToken: Token has been revoked\)/,
    );
  });
});
