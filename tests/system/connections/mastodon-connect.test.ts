import { Client } from 'pg';
import { Rpc } from '@postbus/contracts';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { api, hiddenFields, newConnectUrl, sandboxControl, Visitor } from '../support/handoff';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('conn_mastodon');
  system = await startSystem(env, { TOKEN_REFRESH_DEDUP_MS: '0' });
  account = await system.seedAccount({ platforms: [] });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const credentials = (profileId: string) =>
  system.bus.rpc.call(Rpc.connectionsGetCredentials, { profileId, accountId: account.accountId });

async function mastodonUser(handle: string, instance: string) {
  const res = await sandboxControl(system, 'POST', '/users', { platform: 'mastodon', handle, instance });
  expect(res.status).toBe(201);
  return res.body as { userId: string; accessToken: string };
}

/** Opens a Mastodon link, names the instance on the handoff page, approves as `userId` on the instance's consent page and follows the way back. */
async function connectThroughHandoff(typedInstance: string, userId: string) {
  const link = await newConnectUrl(system, account.apiKey, 'mastodon');
  const visitor = new Visitor();
  const landing = await visitor.get(link.connectUrl);
  const started = await visitor.post(link.connectUrl, { ...hiddenFields(landing.html), instance: typedInstance });
  expect(started.status).toBe(303);
  const consent = await visitor.get(started.location!);
  expect(consent.status).toBe(200);
  const approved = await visitor.post(new URL('authorize', started.location!).toString(), {
    ...hiddenFields(consent.html),
    user_id: userId,
  });
  expect(approved.status).toBe(302);
  const done = await visitor.get(approved.location!);
  const state = await api(system, `/api/v1/connections/requests/${link.requestId}`, { key: account.apiKey });
  return { link, landing, started, done, state: state.body };
}

const mastodonCalls = async () =>
  (await sandboxControl(system, 'GET', '/requests?platform=mastodon')).body as {
    method: string;
    path: string;
    body: Record<string, unknown> | null;
  }[];

describe('connecting a Mastodon account through the handoff page', () => {
  test('when a person names their instance, then Postbus registers its app there, runs OAuth with PKCE on it and stores the account as {id}@{instance}; a second account on the same instance reuses the app', async () => {
    const user = await mastodonUser('studio', 'social.example');
    const other = await mastodonUser('second', 'social.example');

    const first = await connectThroughHandoff('https://Social.Example/', user.userId);
    const second = await connectThroughHandoff('@second@social.example', other.userId);

    expect(first.landing.html).toContain('Your Mastodon server');
    const authorize = new URL(first.started.location!);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(
      `${system.sandboxUrl}/mastodon/social.example/oauth/authorize`,
    );
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: 'code',
      redirect_uri: `${system.baseUrl}/oauth/callback/mastodon`,
      scope: 'write:statuses write:media read:accounts read:statuses read:notifications',
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
    });
    expect(first.done).toMatchObject({ status: 200, html: expect.stringContaining('Mastodon connected') });
    expect(first.state).toMatchObject({ status: 'completed', platform: 'mastodon' });
    expect(second.state).toMatchObject({ status: 'completed' });

    const calls = await mastodonCalls();
    const registrations = calls.filter((c) => c.path === '/mastodon/social.example/api/v1/apps');
    expect(registrations).toEqual([
      expect.objectContaining({
        method: 'POST',
        body: {
          client_name: 'Postbus',
          redirect_uris: `${system.baseUrl}/oauth/callback/mastodon`,
          scopes: 'write:statuses write:media read:accounts read:statuses read:notifications',
          website: expect.any(String),
        },
      }),
    ]);
    const tokenCall = calls.find((c) => c.path === '/mastodon/social.example/oauth/token');
    expect(tokenCall?.body).toMatchObject({
      grant_type: 'authorization_code',
      code_verifier: expect.stringMatching(/^[\w-]{43,128}$/),
      redirect_uri: `${system.baseUrl}/oauth/callback/mastodon`,
    });

    const creds = await credentials(first.state.profileId);
    expect(creds).toMatchObject({
      platform: 'mastodon',
      platformUserId: `${user.userId}@social.example`,
      handle: 'studio@social.example',
      status: 'active',
      tokenExpiresAt: null,
    });
    const me = await fetch(`${system.sandboxUrl}/mastodon/social.example/api/v1/accounts/verify_credentials`, {
      headers: { authorization: `Bearer ${creds.accessToken}` },
    });
    expect(me.status).toBe(200);
    const listed = (await api(system, '/api/v1/connections', { key: account.apiKey })).body.accounts.find(
      (a: { id: string }) => a.id === first.state.profileId,
    );
    expect(listed).toMatchObject({
      platform: 'mastodon',
      handle: 'studio@social.example',
      profileUrl: 'https://social.example/@studio',
    });
    const health = await api(system, `/api/v1/connections/${first.state.profileId}/health`, { key: account.apiKey });
    expect(health.body).toMatchObject({
      platform: 'mastodon',
      status: 'active',
      scopes: { needed: ['write:statuses', 'write:media'] },
      quota: { reason: expect.stringMatching(/300 statuses and 30 media uploads per 30 minutes/) },
      problems: [],
    });
  });

  test('when the address is not an instance, or the instance refuses the app, then the page asks again and the link stays usable', async () => {
    const link = await newConnectUrl(system, account.apiKey, 'mastodon');
    const visitor = new Visitor();
    const landing = await visitor.get(link.connectUrl);

    const typo = await visitor.post(link.connectUrl, {
      ...hiddenFields(landing.html),
      instance: 'not an instance/with path',
    });
    await sandboxControl(system, 'POST', '/faults', {
      platform: 'mastodon',
      mode: 'error',
      operation: 'create',
      status: 422,
      message: 'Validation failed: registrations are closed',
    });
    const refused = await visitor.post(link.connectUrl, { ...hiddenFields(landing.html), instance: 'retry.example' });
    const accepted = await visitor.post(link.connectUrl, { ...hiddenFields(landing.html), instance: 'retry.example' });

    expect(typo).toMatchObject({
      status: 400,
      html: expect.stringContaining('Enter the address of your Mastodon server'),
    });
    expect(refused).toMatchObject({
      status: 400,
      html: expect.stringContaining('retry.example did not register Postbus'),
    });
    expect(refused.html).toContain('registrations are closed');
    expect(accepted.status).toBe(303);
  });

  test('when the app on an instance was registered with fewer scopes than Postbus asks now, then a new app is registered there and the account connects with every scope', async () => {
    const user = await mastodonUser('rescoped', 'older.example');
    await connectThroughHandoff('older.example', user.userId);
    // An app kept from before Postbus asked for more: the instance would refuse the new scopes for it.
    const db = new Client({ connectionString: env.databaseUrl });
    await db.connect();
    await db.query(
      `UPDATE connections.mastodon_apps SET scopes = 'write:statuses write:media read:accounts' WHERE instance = 'older.example'`,
    );
    await db.end();

    const again = await connectThroughHandoff('older.example', user.userId);

    expect(again.state).toMatchObject({ status: 'completed', platform: 'mastodon' });
    const registrations = (await mastodonCalls()).filter((c) => c.path === '/mastodon/older.example/api/v1/apps');
    expect(registrations).toHaveLength(2);
    expect(registrations[1].body).toMatchObject({
      scopes: 'write:statuses write:media read:accounts read:statuses read:notifications',
    });
    const health = await api(system, `/api/v1/connections/${again.state.profileId}/health`, { key: account.apiKey });
    expect(health.body.scopes.granted).toEqual(expect.arrayContaining(['read:statuses', 'read:notifications']));
  });
});
