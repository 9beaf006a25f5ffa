import { createHash, randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { Client as Pg } from 'pg';
import { Rpc } from '@postbus/contracts';
import { completeConsent, connectSandboxProfile, createTestEnv, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

const REDIRECT = 'http://127.0.0.1:8976/oauth/callback';

let env: TestEnv;
let system: RunningSystem;
let person: { email: string; password: string; accountId: string; userId: string; profileId: string };

beforeAll(async () => {
  env = await createTestEnv('mcp_oauth');
  // Verdicts are not cached, so a revoked token is refused on its very next use.
  system = await startSystem(env, { AUTH_CACHE_MS: '0' });
  const email = `agent-owner-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'a long enough password';
  const created = await system.bus.rpc.call(Rpc.authCreateAccount, { email, password });
  const profile = await connectSandboxProfile(
    system.bus.rpc,
    system.sandboxUrl,
    created.accountId,
    'threads',
    `owner_${created.accountId.slice(-6).toLowerCase()}`,
  );
  person = { email, password, ...created, profileId: profile.id };
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

/** An agent's OAuth state, kept in memory as a desktop client would keep it on disk. */
class InMemoryProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier?: string;
  authorizationUrl?: URL;

  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'SDK Test Agent',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    return 'sdk-state-1';
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier!;
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.client = undefined;
  }
}

function rawCall(token: string, name: string, args: Record<string, unknown>) {
  return fetch(`${system.baseUrl}/api/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
}

async function revoke(token: string, clientId: string) {
  const res = await fetch(`${system.baseUrl}/oauth/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, client_id: clientId }).toString(),
  });
  expect(res.status).toBe(200);
}

/** The whole flow by hand (registration, consent, code exchange) for one scope set. */
async function accessTokenWith(scope: string): Promise<string> {
  const reg = (await (
    await fetch(`${system.baseUrl}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Narrow agent',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
      }),
    })
  ).json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL(`${system.baseUrl}/oauth/authorize`);
  const params = {
    response_type: 'code',
    client_id: reg.client_id,
    redirect_uri: REDIRECT,
    scope,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: `${system.baseUrl}/api/mcp`,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const { redirect } = await completeConsent(url, person);
  const res = await fetch(`${system.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: redirect.searchParams.get('code')!,
      code_verifier: verifier,
      client_id: reg.client_id,
      redirect_uri: REDIRECT,
    }).toString(),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

const CHALLENGE = () =>
  `Bearer error="invalid_token", resource_metadata="${system.baseUrl}/.well-known/oauth-protected-resource/api/mcp"`;

describe('an agent with the SDK OAuth provider', () => {
  test('when it calls a tool, then it discovers the server from the 401, registers, gets consent with PKCE, calls tools, refreshes, and is stopped by revocation', async () => {
    const provider = new InMemoryProvider();
    const transport = new StreamableHTTPClientTransport(new URL(`${system.baseUrl}/api/mcp`), {
      authProvider: provider,
    });
    const client = new Client({ name: 'sdk-oauth-test', version: '1.0.0' });
    await client.connect(transport); // initialize needs no credentials

    // Discovery from the 401, dynamic registration, then a PKCE authorization request.
    await expect(client.callTool({ name: 'svc_list_profiles', arguments: {} })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(provider.client?.client_id).toMatch(/^cli_/);
    const asked = provider.authorizationUrl!;
    expect(asked.origin + asked.pathname).toBe(`${system.baseUrl}/oauth/authorize`);
    expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
    expect(asked.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(asked.searchParams.get('resource')).toBe(`${system.baseUrl}/api/mcp`);
    // The scope comes from the challenge (what the tools need); a client that wants a refresh token
    // adds offline_access because the authorization server's metadata lists it (SEP-2207).
    expect(asked.searchParams.get('scope')).toBe('mcp:read mcp:write');
    asked.searchParams.set('scope', 'mcp:read mcp:write offline_access');

    // The person signs in and allows; the client finishes with the code.
    const { redirect, consentHtml } = await completeConsent(asked, person);
    expect(consentHtml).toContain('SDK Test Agent');
    expect(redirect.searchParams.get('iss')).toBe(system.baseUrl);
    expect(redirect.searchParams.get('state')).toBe('sdk-state-1');
    await transport.finishAuth(redirect.searchParams.get('code')!);
    const first = provider.saved!;
    expect(first.access_token).toMatch(/^oat_/);
    expect(first.refresh_token).toMatch(/^ort_/);

    // Tools run as the consenting user's account: a read and a write.
    const listed = await client.callTool({ name: 'svc_list_profiles', arguments: {} });
    expect(listed.isError).toBeFalsy();
    expect((listed.structuredContent as { profiles: { id: string }[] }).profiles.map((p) => p.id)).toEqual([
      person.profileId,
    ]);
    const scheduled = await client.callTool({
      name: 'svc_schedule_post',
      arguments: {
        platforms: ['threads'],
        caption: 'scheduled by an OAuth agent',
        scheduledTime: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    expect(scheduled.isError).toBeFalsy();
    const { postIds } = scheduled.structuredContent as { postIds: string[] };
    const status = await client.callTool({ name: 'svc_get_post_status', arguments: { postId: postIds[0] } });
    expect((status.structuredContent as { status: string }).status).toBe('scheduled');

    // The access token is revoked: the next call answers 401 and the SDK refreshes (rotating the refresh token).
    await revoke(first.access_token, provider.client!.client_id);
    const again = await client.callTool({ name: 'svc_list_profiles', arguments: {} });
    expect(again.isError).toBeFalsy();
    const second = provider.saved!;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).toMatch(/^ort_/);
    expect(second.refresh_token).not.toBe(first.refresh_token);

    // Revoking the refresh token ends the whole grant: the agent must ask the person again.
    await revoke(second.refresh_token!, provider.client!.client_id);
    const revoked = await rawCall(second.access_token, 'svc_list_profiles', {});
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toBe(CHALLENGE());
    provider.authorizationUrl = undefined;
    await expect(client.callTool({ name: 'svc_list_profiles', arguments: {} })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(provider.authorizationUrl).toBeDefined();
    await client.close();
  });
});

describe('OAuth tokens at the agent endpoint', () => {
  test('when a token holds only mcp:read, then read tools work and a write tool answers 403 insufficient_scope naming mcp:write', async () => {
    const token = await accessTokenWith('mcp:read');
    const read = await rawCall(token, 'svc_list_profiles', {});
    expect(read.status).toBe(200);
    const write = await rawCall(token, 'svc_schedule_post', { platforms: ['threads'], caption: 'x' });
    expect(write.status).toBe(403);
    expect(write.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(write.headers.get('www-authenticate')).toContain('scope="mcp:write"');
  });

  test('when a token has expired, then the tool call answers 401 with the resource-metadata challenge', async () => {
    const token = await accessTokenWith('mcp:read mcp:write');
    expect((await rawCall(token, 'svc_list_profiles', {})).status).toBe(200);
    const pg = new Pg({ connectionString: env.databaseUrl });
    await pg.connect();
    try {
      await pg.query("UPDATE auth.oauth_tokens SET expires_at = now() - interval '1 second' WHERE hash = $1", [
        createHash('sha256').update(token).digest(),
      ]);
    } finally {
      await pg.end();
    }
    const expired = await rawCall(token, 'svc_list_profiles', {});
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toBe(CHALLENGE());
  });

  test('when a made-up bearer token is sent, then 401 with the challenge', async () => {
    const res = await rawCall(`oat_${randomBytes(32).toString('base64url')}`, 'svc_list_profiles', {});
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(CHALLENGE());
  });
});
