import { createHash, randomBytes } from 'node:crypto';
import { Client as Pg } from 'pg';
import { AppError, Rpc } from '@postbus/contracts';
import { completeConsent, CookieBrowser, createTestEnv, hiddenFields, waitFor, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { callTool } from '../support/mcp-client';

/**
 * Connected applications: the grants a person gave through the consent page, listed on /settings
 * with a revoke that ends every token of the grant, at once, even where a verdict was cached
 * (mcp keeps them AUTH_CACHE_MS, a minute here); and a grant's maximum total lifetime.
 */

let env: TestEnv;
let system: RunningSystem;
let pg: Pg;

beforeAll(async () => {
  env = await createTestEnv('auth_oauth_grants');
  system = await startSystem(env, { AUTH_CACHE_MS: '60000', OAUTH_GRANT_MAX_DAYS: '90' });
  pg = new Pg({ connectionString: env.databaseUrl });
  await pg.connect();
});
afterAll(async () => {
  await pg?.end();
  await system?.stop();
  await env?.drop();
});

const REDIRECT = 'http://127.0.0.1:7777/callback';
const resource = () => `${system.baseUrl}/api/mcp`;

async function aPerson() {
  const email = `grants-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'a long enough password';
  const created = await system.bus.rpc.call(Rpc.authCreateAccount, { email, password });
  return { email, password, ...created };
}

async function publicClient(name: string) {
  const res = await fetch(`${system.baseUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

async function token(form: Record<string, string>) {
  const res = await fetch(`${system.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** The person allows `clientName` (scopes with offline_access); answers its tokens and the signed-in browser. */
async function connectApplication(person: { email: string; password: string }, clientName: string) {
  const clientId = await publicClient(clientName);
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL(`${system.baseUrl}/oauth/authorize`);
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope: 'mcp:read mcp:write offline_access',
    state: 's',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: resource(),
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const { redirect, browser } = await completeConsent(url, person);
  const exchanged = await token({
    grant_type: 'authorization_code',
    code: redirect.searchParams.get('code')!,
    code_verifier: verifier,
    client_id: clientId,
    redirect_uri: REDIRECT,
    resource: resource(),
  });
  expect(exchanged.status).toBe(200);
  const tokens = exchanged.body as { access_token: string; refresh_token: string };
  const [{ grant_id: grantId }] = (
    await pg.query('SELECT grant_id FROM auth.oauth_tokens WHERE hash = $1', [
      createHash('sha256').update(tokens.access_token).digest(),
    ])
  ).rows;
  return { clientId, grantId: grantId as string, browser, ...tokens };
}

const refresh = (app: { clientId: string; refresh_token: string }) =>
  token({
    grant_type: 'refresh_token',
    refresh_token: app.refresh_token,
    client_id: app.clientId,
    resource: resource(),
  });

async function verify(accessToken: string) {
  try {
    return await system.bus.rpc.call(Rpc.authVerifyAccessToken, { token: accessToken, resource: resource() });
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
}

/** One tool call on the agent endpoint with this access token. */
const agentCall = (accessToken: string) => callTool(system.baseUrl, 'svc_list_profiles', {}, accessToken);

const revokeAction = (grantId: string) => `/settings/applications/${grantId}/revoke`;

async function signedIn(person: { email: string; password: string }) {
  const browser = new CookieBrowser(system.baseUrl);
  const page = await browser.request('/signin');
  const done = await browser.request('/signin', {
    ...hiddenFields(page.html, '/signin'),
    email: person.email,
    password: person.password,
  });
  expect(done.status).toBe(303);
  return browser;
}

describe('connected applications on /settings', () => {
  test('when a person allowed an application, then settings lists it with its scopes, when it was allowed and last used, and a revoke form', async () => {
    const person = await aPerson();
    const app = await connectApplication(person, 'Listed Agent <b>');

    const page = await app.browser.request('/settings');

    expect(page.status).toBe(200);
    const row = page.html.match(new RegExp(`<tr data-grant-id="${app.grantId}">([\\s\\S]*?)</tr>`))?.[1] ?? '';
    expect(row).toContain('<td>Listed Agent &lt;b&gt;</td>');
    expect(row).toContain('<td>mcp:read mcp:write offline_access</td>');
    expect(row).toMatch(/<td>\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/td><td>\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/td>/);
    expect(hiddenFields(page.html, revokeAction(app.grantId))._csrf).toBeTruthy();
  });

  test('when the revoke form is sent without its CSRF token, or by another person, then 403 or nothing, and the grant still works', async () => {
    const person = await aPerson();
    const app = await connectApplication(person, 'Guarded Agent');

    const forged = await app.browser.request(revokeAction(app.grantId), { _csrf: 'not-the-token' });
    expect(forged.status).toBe(403);

    const other = await signedIn(await aPerson());
    const otherPage = await other.request('/settings');
    const stranger = await other.request(revokeAction(app.grantId), { _csrf: hiddenFields(otherPage.html)._csrf });
    expect(stranger.status).toBe(303);

    expect(await verify(app.access_token)).toMatchObject({ accountId: person.accountId });
    expect((await refresh(app)).status).toBe(200);
  });

  test('when the person revokes an application, then its access and refresh tokens stop working and it leaves the list', async () => {
    const person = await aPerson();
    const app = await connectApplication(person, 'Revoked Agent');
    const page = await app.browser.request('/settings');

    const revoked = await app.browser.request(
      revokeAction(app.grantId),
      hiddenFields(page.html, revokeAction(app.grantId)),
    );

    expect(revoked.status).toBe(303);
    const after = await app.browser.request(revoked.location!);
    expect(after.html).toContain('“Revoked Agent” no longer has access to your account');
    expect(after.html).not.toContain(`data-grant-id="${app.grantId}"`);
    expect(await verify(app.access_token)).toMatchObject({ code: 'invalid_api_key' });
    expect(await refresh(app)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  test('when an application is revoked in settings, then the agent endpoint refuses its token at once although it cached the verdict', async () => {
    const person = await aPerson();
    const app = await connectApplication(person, 'Cached Agent');
    expect((await agentCall(app.access_token)).status).toBe(200); // verdict now cached for a minute
    const page = await app.browser.request('/settings');

    await app.browser.request(revokeAction(app.grantId), hiddenFields(page.html, revokeAction(app.grantId)));

    await waitFor(async () => ((await agentCall(app.access_token)).status === 401 ? true : undefined), {
      what: 'the agent endpoint to refuse the revoked grant',
      timeoutMs: 15_000,
    });
  });
});

describe('the maximum lifetime of a grant', () => {
  const age = (grantId: string, days: number) =>
    pg.query(`UPDATE auth.oauth_grants SET created_at = now() - make_interval(days => $2) WHERE id = $1`, [
      grantId,
      days,
    ]);

  test('when a grant is younger than OAUTH_GRANT_MAX_DAYS, then its refresh token is exchanged', async () => {
    const app = await connectApplication(await aPerson(), 'Young Agent');
    await age(app.grantId, 89);

    expect((await refresh(app)).status).toBe(200);
  });

  test('when a grant is older than OAUTH_GRANT_MAX_DAYS, then its refresh token answers invalid_grant, its access token is refused and settings no longer lists it', async () => {
    const app = await connectApplication(await aPerson(), 'Old Agent');
    await age(app.grantId, 91);

    const refused = await refresh(app);

    expect(refused).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: expect.stringContaining('maximum lifetime') },
    });
    expect(await verify(app.access_token)).toMatchObject({ code: 'invalid_api_key' });
    expect((await app.browser.request('/settings')).html).not.toContain(`data-grant-id="${app.grantId}"`);
  });
});
