import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as Pg } from 'pg';
import { AppError, Rpc } from '@postbus/contracts';
import { completeConsent, CookieBrowser, createTestEnv, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

let env: TestEnv;
let system: RunningSystem;
let person: { email: string; password: string; accountId: string; userId: string };
let documents: Server;
let documentsUrl: string;
/** Client ID metadata documents served by a local "client", by path. */
const served = new Map<string, { status?: number; headers?: Record<string, string>; body: unknown }>();

beforeAll(async () => {
  env = await createTestEnv('auth_oauth');
  system = await startSystem(env, { OAUTH_CIMD_ALLOW_LOOPBACK: 'true', AUTH_CACHE_MS: '0' });
  const email = `oauth-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'a long enough password';
  const created = await system.bus.rpc.call(Rpc.authCreateAccount, { email, password });
  person = { email, password, ...created };
  documents = createServer((req, res) => {
    const doc = served.get(req.url ?? '');
    if (!doc) return void res.writeHead(404).end();
    res
      .writeHead(doc.status ?? 200, { 'content-type': 'application/json', ...doc.headers })
      .end(typeof doc.body === 'string' ? doc.body : JSON.stringify(doc.body));
  });
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  documentsUrl = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => documents?.close(resolve));
  await system?.stop();
  await env?.drop();
});

const REDIRECT = 'http://127.0.0.1:7777/callback';
const resource = () => `${system.baseUrl}/api/mcp`;

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

async function register(body: unknown) {
  const res = await fetch(`${system.baseUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function publicClient(name = 'Test agent', redirectUris = [REDIRECT]) {
  const { status, body } = await register({
    client_name: name,
    redirect_uris: redirectUris,
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
  });
  expect(status).toBe(201);
  return body.client_id as string;
}

function authorizeUrl(params: Record<string, string | undefined>) {
  const url = new URL(`${system.baseUrl}/oauth/authorize`);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url;
}

async function token(form: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(`${system.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}

async function revoke(form: Record<string, string>) {
  const res = await fetch(`${system.baseUrl}/oauth/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: await res.text() };
}

/** Authorizes a client through sign-in and consent; answers the code and the verifier. */
async function authorized(clientId: string, opts: { scope?: string; redirectUri?: string; state?: string } = {}) {
  const { verifier, challenge } = pkce();
  const state = opts.state ?? randomBytes(8).toString('hex');
  const url = authorizeUrl({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: opts.redirectUri ?? REDIRECT,
    scope: opts.scope ?? 'profile mcp:read mcp:write offline_access',
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: resource(),
  });
  const outcome = await completeConsent(url, person);
  expect(outcome.redirect.searchParams.get('state')).toBe(state);
  return { code: outcome.redirect.searchParams.get('code')!, verifier, outcome };
}

async function tokensFor(clientId: string, scope?: string) {
  const { code, verifier } = await authorized(clientId, { scope });
  const res = await token({
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    client_id: clientId,
    redirect_uri: REDIRECT,
    resource: resource(),
  });
  expect(res.status).toBe(200);
  return res.body as { access_token: string; refresh_token?: string; scope: string; expires_in: number };
}

async function verify(accessToken: string, forResource = resource()) {
  try {
    return await system.bus.rpc.call(Rpc.authVerifyAccessToken, { token: accessToken, resource: forResource });
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
}

describe('authorization server metadata and registration', () => {
  test('when the metadata is read, then it names {base_url} as issuer, S256 only, client ID metadata documents and every endpoint', async () => {
    const res = await fetch(`${system.baseUrl}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const meta = (await res.json()) as Record<string, unknown>;
    expect(meta).toMatchObject({
      issuer: system.baseUrl,
      authorization_endpoint: `${system.baseUrl}/oauth/authorize`,
      token_endpoint: `${system.baseUrl}/oauth/token`,
      registration_endpoint: `${system.baseUrl}/oauth/register`,
      revocation_endpoint: `${system.baseUrl}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
      scopes_supported: ['profile', 'mcp:read', 'mcp:write', 'offline_access'],
      response_types_supported: ['code'],
    });
  });

  test('when a client registers dynamically, then it gets a client_id, and a secret only when it is not public', async () => {
    const pub = await register({
      client_name: 'Public',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    });
    expect(pub.status).toBe(201);
    expect(pub.body.client_id).toMatch(/^cli_/);
    expect(pub.body.client_secret).toBeUndefined();
    expect(pub.body.redirect_uris).toEqual([REDIRECT]);
    const confidential = await register({ client_name: 'Server app', redirect_uris: ['https://app.example.com/cb'] });
    expect(confidential.body.token_endpoint_auth_method).toBe('client_secret_basic');
    expect(confidential.body.client_secret).toMatch(/^ocs_/);
  });

  test('when a registration has an unusable redirect URI or metadata, then 400 invalid_redirect_uri or invalid_client_metadata', async () => {
    expect(await register({ redirect_uris: ['http://app.example.com/cb'] })).toMatchObject({
      status: 400,
      body: { error: 'invalid_redirect_uri' },
    });
    expect(await register({ redirect_uris: ['https://app.example.com/cb#frag'] })).toMatchObject({
      status: 400,
      body: { error: 'invalid_redirect_uri' },
    });
    expect(await register({ redirect_uris: [] })).toMatchObject({
      status: 400,
      body: { error: 'invalid_redirect_uri' },
    });
    expect(await register({ redirect_uris: [REDIRECT], grant_types: ['client_credentials'] })).toMatchObject({
      status: 400,
      body: { error: 'invalid_client_metadata' },
    });
    expect(await register({ redirect_uris: [REDIRECT], scope: 'admin' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_client_metadata' },
    });
    expect(await register('{not json')).toMatchObject({ status: 400, body: { error: 'invalid_client_metadata' } });
  });
});

describe('authorization code with PKCE', () => {
  test('when a person who is not signed in follows an authorization link, then they sign in and see the client name and redirect host before consenting', async () => {
    const clientId = await publicClient('Pixel Planner');
    const { challenge } = pkce();
    const browser = new CookieBrowser(system.baseUrl);
    const first = await browser.request(
      authorizeUrl({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }).toString(),
    );
    expect(first.status).toBe(303);
    expect(first.location).toMatch(/^\/signin\?next=%2Foauth%2Fauthorize%3F/);
    const { consentHtml, redirect } = await completeConsent(
      authorizeUrl({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 'xyz',
      }),
      person,
      { browser },
    );
    expect(consentHtml).toContain('<span id="client-name">Pixel Planner</span>');
    expect(consentHtml).toContain('<strong id="redirect-host">127.0.0.1:7777</strong>');
    expect(consentHtml).toContain('mcp:write');
    expect(redirect.origin + redirect.pathname).toBe(REDIRECT);
    expect(redirect.searchParams.get('code')).toMatch(/^oac_/);
    expect(redirect.searchParams.get('iss')).toBe(system.baseUrl);
  });

  test('when the code is exchanged with its verifier, then the access token stands for the consenting user with the granted scopes and the resource as audience', async () => {
    const clientId = await publicClient();
    const { code, verifier } = await authorized(clientId, { scope: 'mcp:read offline_access' });
    const res = await token({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: REDIRECT,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({
      token_type: 'Bearer',
      scope: 'mcp:read offline_access',
      expires_in: expect.any(Number),
    });
    expect(res.body.access_token).toMatch(/^oat_/);
    expect(res.body.refresh_token).toMatch(/^ort_/);
    const principal = await verify(res.body.access_token);
    expect(principal).toEqual({
      accountId: person.accountId,
      userId: person.userId,
      credential: { type: 'oauth', id: expect.stringMatching(/^tok_/) },
      scopes: ['mcp:read', 'offline_access'],
      profileIds: 'all',
    });
  });

  test('when a confidential client exchanges a code, then it must authenticate with its secret', async () => {
    const reg = await register({ client_name: 'Server app', redirect_uris: [REDIRECT] });
    const { client_id: clientId, client_secret: secret } = reg.body;
    const { code, verifier } = await authorized(clientId);
    const form = { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT };
    const basic = (s: string) => ({ authorization: `Basic ${Buffer.from(`${clientId}:${s}`).toString('base64')}` });
    const wrong = await token(form, basic('ocs_wrong'));
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    // A failed client authentication does not use the code up.
    const right = await token(form, basic(secret));
    expect(right.status).toBe(200);
    expect(right.body.access_token).toMatch(/^oat_/);
  });

  test('when a confidential client form-encodes its id and secret in HTTP Basic (RFC 6749 §2.3.1), then the token and revocation endpoints decode them', async () => {
    const reg = await register({ client_name: 'Strict client', redirect_uris: [REDIRECT] });
    const { client_id: clientId, client_secret: secret } = reg.body as { client_id: string; client_secret: string };
    // As a strict client encodes: everything but letters and digits percent-encoded (`_` → %5F), a space as `+`.
    const strict = (s: string) =>
      s.replace(/[^A-Za-z0-9]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
    const basic = (id: string, s: string) => ({
      authorization: `Basic ${Buffer.from(`${id}:${s}`).toString('base64')}`,
    });
    expect(strict(clientId)).toContain('%5F');
    const { code, verifier } = await authorized(clientId);
    const form = { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT };
    const wrong = await token(form, basic(strict(clientId), strict(`${secret}x`)));
    expect(wrong).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic/);
    const unreadable = await token(form, basic(clientId, `${secret}%ZZ`));
    expect(unreadable).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const right = await token(form, basic(strict(clientId), strict(secret)));
    expect(right.status).toBe(200);
    const revoked = await fetch(`${system.baseUrl}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic(strict(clientId), strict(secret)) },
      body: new URLSearchParams({ token: right.body.access_token }).toString(),
    });
    expect(revoked.status).toBe(200);
    expect(await verify(right.body.access_token)).toMatchObject({
      code: 'invalid_api_key',
      message: expect.stringMatching(/revoked/),
    });
  });

  test('when an authorization request has no PKCE challenge or uses plain, then the client gets invalid_request on its redirect URI with state and iss', async () => {
    const clientId = await publicClient();
    const browser = new CookieBrowser(system.baseUrl);
    const missing = await browser.request(
      authorizeUrl({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, state: 's1' }).toString(),
    );
    expect(missing.status).toBe(303);
    const to = new URL(missing.location!);
    expect(to.origin + to.pathname).toBe(REDIRECT);
    expect(to.searchParams.get('error')).toBe('invalid_request');
    expect(to.searchParams.get('error_description')).toMatch(/PKCE is required/);
    expect(to.searchParams.get('state')).toBe('s1');
    expect(to.searchParams.get('iss')).toBe(system.baseUrl);
    const plain = await browser.request(
      authorizeUrl({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: 'a'.repeat(43),
        code_challenge_method: 'plain',
      }).toString(),
    );
    expect(new URL(plain.location!).searchParams.get('error')).toBe('invalid_request');
  });

  test('when the redirect URI is not registered, then the person sees an error and nothing is sent to that URI; a loopback one may change only its port', async () => {
    const clientId = await publicClient('Loopback app', ['http://127.0.0.1:1111/cb']);
    const { challenge } = pkce();
    const browser = new CookieBrowser(system.baseUrl);
    const foreign = await browser.request(
      authorizeUrl({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: 'https://attacker.example/cb',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }).toString(),
    );
    expect(foreign.status).toBe(400);
    expect(foreign.location).toBeNull();
    expect(foreign.html).toContain('invalid_request');
    expect(foreign.html).toContain('is not registered for this client');
    const otherPath = await browser.request(
      authorizeUrl({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: 'http://127.0.0.1:2222/other',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }).toString(),
    );
    expect(otherPath.status).toBe(400);
    const { redirect } = await completeConsent(
      authorizeUrl({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: 'http://127.0.0.1:2222/cb',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
      person,
    );
    expect(redirect.origin).toBe('http://127.0.0.1:2222');
    expect(redirect.searchParams.get('code')).toMatch(/^oac_/);
  });

  test('when the client is unknown, then the person sees invalid_client and nothing is redirected', async () => {
    const res = await new CookieBrowser(system.baseUrl).request(
      authorizeUrl({
        response_type: 'code',
        client_id: 'cli_nobody',
        redirect_uri: REDIRECT,
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      }).toString(),
    );
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
    expect(res.html).toContain('invalid_client');
  });

  test('when the person denies, then the client gets access_denied with iss', async () => {
    const clientId = await publicClient();
    const { redirect } = await completeConsent(
      authorizeUrl({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        state: 'no',
      }),
      person,
      { decision: 'deny' },
    );
    expect(redirect.searchParams.get('error')).toBe('access_denied');
    expect(redirect.searchParams.get('state')).toBe('no');
    expect(redirect.searchParams.get('iss')).toBe(system.baseUrl);
    expect(redirect.searchParams.get('code')).toBeNull();
  });

  test('when the verifier is wrong, then invalid_grant and the code is used up', async () => {
    const clientId = await publicClient();
    const { code, verifier } = await authorized(clientId);
    const wrong = await token({
      grant_type: 'authorization_code',
      code,
      code_verifier: pkce().verifier,
      client_id: clientId,
      redirect_uri: REDIRECT,
    });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const again = await token({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: REDIRECT,
    });
    expect(again).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  test('when a code is exchanged twice, then the second answers invalid_grant and the tokens of the first are revoked', async () => {
    const clientId = await publicClient();
    const { code, verifier } = await authorized(clientId);
    const form = {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: REDIRECT,
    };
    const first = await token(form);
    expect(first.status).toBe(200);
    expect(await verify(first.body.access_token)).toMatchObject({ userId: person.userId });
    expect(await token(form)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await verify(first.body.access_token)).toMatchObject({ code: 'invalid_api_key' });
  });

  test('when the token request names another redirect URI than the authorization request, then invalid_request', async () => {
    const clientId = await publicClient('Two ports', ['http://127.0.0.1:1111/cb']);
    const { code, verifier } = await authorized(clientId, { redirectUri: 'http://127.0.0.1:3333/cb' });
    const res = await token({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: 'http://127.0.0.1:1111/cb',
    });
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });
});

describe('resource indicators and token lifetime', () => {
  test('when a token is presented to another resource than its audience, then it is refused', async () => {
    const { access_token } = await tokensFor(await publicClient());
    expect(await verify(access_token)).toMatchObject({ userId: person.userId });
    const elsewhere = await verify(access_token, 'https://elsewhere.example/api/mcp');
    expect(elsewhere).toBeInstanceOf(AppError);
    expect(elsewhere).toMatchObject({ code: 'invalid_api_key', message: expect.stringMatching(/another resource/) });
  });

  test('when a client asks for a resource this server does not serve, then invalid_target on the authorization and on the token request', async () => {
    const clientId = await publicClient();
    const res = await new CookieBrowser(system.baseUrl).request(
      authorizeUrl({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        resource: 'https://elsewhere.example/api',
      }).toString(),
    );
    expect(new URL(res.location!).searchParams.get('error')).toBe('invalid_target');
    const { code, verifier } = await authorized(clientId);
    const mismatch = await token({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: REDIRECT,
      resource: 'https://elsewhere.example/api',
    });
    expect(mismatch).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
  });

  test('when the consenting account is disabled or its trial has ended, then its tokens are refused with api_access_disabled or plan_required', async () => {
    const email = `other-${randomBytes(4).toString('hex')}@example.com`;
    const other = await system.bus.rpc.call(Rpc.authCreateAccount, { email, password: person.password });
    const clientId = await publicClient();
    const { verifier, challenge } = pkce();
    const { redirect } = await completeConsent(
      authorizeUrl({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
      { email, password: person.password },
    );
    const res = await token({
      grant_type: 'authorization_code',
      code: redirect.searchParams.get('code')!,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: REDIRECT,
    });
    expect(await verify(res.body.access_token)).toMatchObject({ accountId: other.accountId, userId: other.userId });
    await system.bus.rpc.call(Rpc.authUpdateAccount, { accountId: other.accountId, plan: 'expired' });
    expect(await verify(res.body.access_token)).toMatchObject({ code: 'plan_required' });
    await system.bus.rpc.call(Rpc.authUpdateAccount, { accountId: other.accountId, plan: 'pro', disabled: true });
    expect(await verify(res.body.access_token)).toMatchObject({ code: 'api_access_disabled' });
  });

  test('when an access token has expired, then it is refused', async () => {
    const { access_token } = await tokensFor(await publicClient());
    const pg = new Pg({ connectionString: env.databaseUrl });
    await pg.connect();
    try {
      await pg.query("UPDATE auth.oauth_tokens SET expires_at = now() - interval '1 second' WHERE hash = $1", [
        createHash('sha256').update(access_token).digest(),
      ]);
    } finally {
      await pg.end();
    }
    expect(await verify(access_token)).toMatchObject({
      code: 'invalid_api_key',
      message: expect.stringMatching(/expired/),
    });
  });
});

describe('refresh tokens', () => {
  test('when offline_access is not granted, then no refresh token is issued', async () => {
    const tokens = await tokensFor(await publicClient(), 'profile mcp:read mcp:write');
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.scope).toBe('profile mcp:read mcp:write');
  });

  test('when a refresh token is used, then it is rotated; when the used one comes back, then invalid_grant and the whole family is revoked', async () => {
    const clientId = await publicClient();
    const first = await tokensFor(clientId);
    const refreshed = await token({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token!,
      client_id: clientId,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).toMatch(/^ort_/);
    expect(refreshed.body.refresh_token).not.toBe(first.refresh_token);
    expect(await verify(refreshed.body.access_token)).toMatchObject({
      userId: person.userId,
      scopes: ['profile', 'mcp:read', 'mcp:write', 'offline_access'],
    });

    const reused = await token({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token!,
      client_id: clientId,
    });
    expect(reused).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: expect.stringMatching(/already used/) },
    });
    expect(await verify(refreshed.body.access_token)).toMatchObject({
      code: 'invalid_api_key',
      message: expect.stringMatching(/revoked/),
    });
    expect(await verify(first.access_token)).toMatchObject({ code: 'invalid_api_key' });
    expect(
      await token({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token, client_id: clientId }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  test('when another client presents a refresh token, then invalid_grant', async () => {
    const owner = await publicClient();
    const thief = await publicClient();
    const { refresh_token } = await tokensFor(owner);
    expect(await token({ grant_type: 'refresh_token', refresh_token: refresh_token!, client_id: thief })).toMatchObject(
      { status: 400, body: { error: 'invalid_grant' } },
    );
  });
});

describe('revocation', () => {
  test('when an access token is revoked, then only it stops working', async () => {
    const clientId = await publicClient();
    const tokens = await tokensFor(clientId);
    expect(await revoke({ token: tokens.access_token, token_type_hint: 'access_token', client_id: clientId })).toEqual({
      status: 200,
      body: '',
    });
    expect(await verify(tokens.access_token)).toMatchObject({
      code: 'invalid_api_key',
      message: expect.stringMatching(/revoked/),
    });
    expect(
      (await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: clientId })).status,
    ).toBe(200);
  });

  test('when a refresh token is revoked, then every token of its grant stops working', async () => {
    const clientId = await publicClient();
    const tokens = await tokensFor(clientId);
    expect((await revoke({ token: tokens.refresh_token!, client_id: clientId })).status).toBe(200);
    expect(await verify(tokens.access_token)).toMatchObject({ code: 'invalid_api_key' });
    expect(
      await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: clientId }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  test('when an unknown token is revoked, then 200; when the client is unknown, then invalid_client', async () => {
    const clientId = await publicClient();
    expect((await revoke({ token: 'oat_unknown', client_id: clientId })).status).toBe(200);
    const res = await fetch(`${system.baseUrl}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'token=x&client_id=cli_nobody',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_client' });
    const basic = await fetch(`${system.baseUrl}/oauth/revoke`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('cli_nobody:x').toString('base64')}`,
      },
      body: 'token=x',
    });
    expect(basic.status).toBe(401);
    expect(basic.headers.get('www-authenticate')).toMatch(/^Basic/);
  });
});

describe('client ID metadata documents', () => {
  const docUrl = (path: string) => `${documentsUrl}${path}`;

  test('when the client_id is the URL of a metadata document, then its name is shown and its code exchanges for tokens', async () => {
    const clientId = docUrl('/clients/good.json');
    served.set('/clients/good.json', {
      body: {
        client_id: clientId,
        client_name: 'Document Agent',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
      },
    });
    const { code, verifier, outcome } = await authorized(clientId);
    expect(outcome.consentHtml).toContain('<span id="client-name">Document Agent</span>');
    expect(outcome.consentHtml).toContain('Identified by its metadata document');
    const res = await token({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: REDIRECT,
    });
    expect(res.status).toBe(200);
    expect(await verify(res.body.access_token)).toMatchObject({ userId: person.userId });
  });

  test('when the document names another client_id, then invalid_client and nothing is redirected', async () => {
    const clientId = docUrl('/clients/liar.json');
    served.set('/clients/liar.json', {
      body: { client_id: 'https://someone-else.example/client.json', client_name: 'Liar', redirect_uris: [REDIRECT] },
    });
    const res = await new CookieBrowser(system.baseUrl).request(
      authorizeUrl({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      }).toString(),
    );
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
    expect(res.html).toContain('invalid_client');
    expect(res.html).toContain('it must be exactly its own URL');
    const atToken = await token({
      grant_type: 'authorization_code',
      code: 'oac_x',
      code_verifier: pkce().verifier,
      client_id: clientId,
      redirect_uri: REDIRECT,
    });
    expect(atToken).toMatchObject({ status: 400, body: { error: 'invalid_client' } });
  });

  test('when the redirect URI is not one the document lists, or the document redirects, then the request is refused', async () => {
    const clientId = docUrl('/clients/strict.json');
    served.set('/clients/strict.json', {
      body: { client_id: clientId, redirect_uris: ['http://127.0.0.1:7777/only-here'] },
    });
    const browser = new CookieBrowser(system.baseUrl);
    const notListed = await browser.request(
      authorizeUrl({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      }).toString(),
    );
    expect(notListed.status).toBe(400);
    expect(notListed.html).toContain('is not registered for this client');
    const moved = docUrl('/clients/moved.json');
    served.set('/clients/moved.json', { status: 302, headers: { location: '/clients/strict.json' }, body: '' });
    const redirected = await browser.request(
      authorizeUrl({
        response_type: 'code',
        client_id: moved,
        redirect_uri: REDIRECT,
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      }).toString(),
    );
    expect(redirected.status).toBe(400);
    expect(redirected.html).toContain('redirects are not followed');
  });
});
