import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// oauth4webapi is an ES module: its types are imported as one, the module itself when the tests start.
import type * as OAuth from 'oauth4webapi' with { 'resolution-mode': 'import' };
import { Rpc } from '@postbus/contracts';
import { completeConsent, connectSandboxProfile, createTestEnv, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

/**
 * An agent on a strict OAuth library (oauth4webapi: exact issuer and resource checks, `iss` in the
 * authorization response, PKCE), doing everything from the endpoint's 401: protected-resource
 * metadata, authorization-server metadata, a registered or metadata-document client, the code
 * flow, refresh rotation and reuse detection, and each client authentication method.
 */

const REDIRECT = 'http://127.0.0.1:8977/oauth/callback';
let oauth: typeof OAuth;
/** oauth4webapi speaks https only unless told; the test system serves plain http on loopback. */
let insecure: { [key: symbol]: boolean };

let env: TestEnv;
let system: RunningSystem;
let person: { email: string; password: string; accountId: string; userId: string };
let documents: Server;
let documentsUrl: string;
const served = new Map<string, unknown>();

beforeAll(async () => {
  oauth = await import('oauth4webapi');
  insecure = { [oauth.allowInsecureRequests]: true };
  env = await createTestEnv('mcp_oauth_strict');
  system = await startSystem(env, { OAUTH_CIMD_ALLOW_LOOPBACK: 'true', AUTH_CACHE_MS: '0' });
  const email = `strict-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'a long enough password';
  person = { email, password, ...(await system.bus.rpc.call(Rpc.authCreateAccount, { email, password })) };
  await connectSandboxProfile(
    system.bus.rpc,
    system.sandboxUrl,
    person.accountId,
    'threads',
    `strict_${person.accountId.slice(-6).toLowerCase()}`,
  );
  documents = createServer((req, res) => {
    const doc = served.get(req.url ?? '');
    if (!doc) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
  });
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  documentsUrl = `http://127.0.0.1:${(documents.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => documents?.close(resolve));
  await system?.stop();
  await env?.drop();
});

const resource = () => new URL(`${system.baseUrl}/api/mcp`);

function toolCall(accessToken?: string) {
  return fetch(resource(), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...(accessToken && { authorization: `Bearer ${accessToken}` }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'svc_list_profiles', arguments: {} },
    }),
  });
}

/** From the 401 alone: its resource_metadata, the protected-resource metadata, then the authorization server's. */
async function discover(): Promise<{ as: OAuth.AuthorizationServer; scope: string }> {
  const refused = await toolCall();
  expect(refused.status).toBe(401);
  const header = refused.headers.get('www-authenticate') ?? '';
  const metadataUrl = /resource_metadata="([^"]+)"/.exec(header)?.[1];
  const scope = /scope="([^"]+)"/.exec(header)?.[1] ?? '';
  const rsResponse = await oauth.resourceDiscoveryRequest(resource(), insecure);
  expect(rsResponse.url).toBe(metadataUrl);
  const rs = await oauth.processResourceDiscoveryResponse(resource(), rsResponse);
  const issuer = new URL(rs.authorization_servers![0]);
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
  );
  return { as, scope };
}

/** The person consents in the browser; the code comes back with `iss`, checked, and is exchanged with PKCE for the resource. */
async function authorize(
  as: OAuth.AuthorizationServer,
  client: OAuth.Client,
  auth: OAuth.ClientAuth,
  scope: string,
): Promise<OAuth.TokenEndpointResponse> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  for (const [k, v] of Object.entries({
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    resource: resource().href,
  }))
    url.searchParams.set(k, v);
  const { redirect } = await completeConsent(url, person);
  const params = oauth.validateAuthResponse(as, client, redirect, state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, auth, params, REDIRECT, verifier, {
    additionalParameters: { resource: resource().href },
    ...insecure,
  });
  return oauth.processAuthorizationCodeResponse(as, client, response);
}

const refresh = async (as: OAuth.AuthorizationServer, client: OAuth.Client, auth: OAuth.ClientAuth, token: string) =>
  oauth.processRefreshTokenResponse(
    as,
    client,
    await oauth.refreshTokenGrantRequest(as, client, auth, token, {
      additionalParameters: { resource: resource().href },
      ...insecure,
    }),
  );

/**
 * How the token endpoint refused: oauth4webapi throws a ResponseBodyError, or, for a 401 that
 * challenges the client (RFC 6749 §5.2, client_secret_basic), a WWWAuthenticateChallengeError.
 */
async function refusal(attempt: Promise<unknown>): Promise<{ status: number; error: string }> {
  try {
    await attempt;
  } catch (err) {
    if (err instanceof oauth.ResponseBodyError) return { status: err.status, error: err.error };
    if (err instanceof oauth.WWWAuthenticateChallengeError)
      return { status: err.status, error: ((await err.response.json()) as { error: string }).error };
    throw err;
  }
  throw new Error('the token endpoint answered tokens');
}

async function register(
  as: OAuth.AuthorizationServer,
  method: 'none' | 'client_secret_basic' | 'client_secret_post',
): Promise<OAuth.Client> {
  const metadata = {
    client_name: `Strict agent (${method})`,
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: method,
  };
  return oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(as, metadata, insecure),
  );
}

describe('a strict OAuth client at the agent endpoint', () => {
  test('when it starts from the 401, then discovery leads to an authorization server that asks for PKCE S256 and names the scopes to ask for', async () => {
    const { as, scope } = await discover();
    expect(as.issuer).toBe(system.baseUrl);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.authorization_response_iss_parameter_supported).toBe(true);
    expect(scope.split(' ').every((s) => as.scopes_supported!.includes(s))).toBe(true);
  });

  test('when a registered public client completes the flow and refreshes, then the token calls tools, rotates, and a reused refresh token revokes the grant', async () => {
    const { as, scope } = await discover();
    const client = await register(as, 'none');
    const tokens = await authorize(as, client, oauth.None(), `${scope} offline_access`);
    expect((await toolCall(tokens.access_token)).status).toBe(200);

    const rotated = await refresh(as, client, oauth.None(), tokens.refresh_token!);
    expect(rotated.refresh_token).toBeDefined();
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
    expect((await toolCall(rotated.access_token)).status).toBe(200);

    await expect(refresh(as, client, oauth.None(), tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    // The whole grant is gone: the rotated refresh token and its access token are refused too.
    await expect(refresh(as, client, oauth.None(), rotated.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const afterReuse = await toolCall(rotated.access_token);
    expect(afterReuse.status).toBe(401);
    expect(afterReuse.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  test('when a confidential client authenticates with client_secret_basic, then with client_secret_post, each gets tokens; a wrong secret is invalid_client', async () => {
    const { as, scope } = await discover();
    // A wrong secret in the Authorization header must be a 401 (RFC 6749 §5.2); in the form, a 400.
    for (const [method, auth, refusedWith] of [
      ['client_secret_basic', oauth.ClientSecretBasic, 401],
      ['client_secret_post', oauth.ClientSecretPost, 400],
    ] as const) {
      const client = await register(as, method);
      expect(client.client_secret).toEqual(expect.any(String));
      const tokens = await authorize(as, client, auth(client.client_secret as string), `${scope} offline_access`);
      expect([method, (await toolCall(tokens.access_token)).status]).toEqual([method, 200]);
      const rotated = await refresh(as, client, auth(client.client_secret as string), tokens.refresh_token!);
      expect((await toolCall(rotated.access_token)).status).toBe(200);
      expect([method, await refusal(refresh(as, client, auth('not-the-secret'), rotated.refresh_token!))]).toEqual([
        method,
        { status: refusedWith, error: 'invalid_client' },
      ]);
    }
  });

  test('when the client is identified by a client ID metadata document, then the flow works without registration', async () => {
    const { as, scope } = await discover();
    const clientId = `${documentsUrl}/agents/strict.json`;
    served.set('/agents/strict.json', {
      client_id: clientId,
      client_name: 'Strict document agent',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
    const client: OAuth.Client = { client_id: clientId, token_endpoint_auth_method: 'none' };
    const tokens = await authorize(as, client, oauth.None(), `${scope} offline_access`);
    expect((await toolCall(tokens.access_token)).status).toBe(200);
    const rotated = await refresh(as, client, oauth.None(), tokens.refresh_token!);
    expect((await toolCall(rotated.access_token)).status).toBe(200);
  });
});

describe('a credential lacking a scope', () => {
  test('when an API key without post:write calls a write tool, then the 403 names the scope it needs, the scopes it holds and where to get a key with it', async () => {
    const reader = await system.seedAccount({ platforms: ['threads'], scopes: ['post:read'] });
    const res = await fetch(resource(), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        authorization: `Bearer ${reader.apiKey}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'svc_schedule_post', arguments: { platforms: ['threads'], caption: 'x' } },
      }),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('scope="post:write"');
    expect(await res.json()).toEqual({
      error: `This API key holds post:read; svc_schedule_post needs post:write: create a key with post:write at ${system.baseUrl}/settings.`,
      code: 'insufficient_scope',
    });
  });
});
