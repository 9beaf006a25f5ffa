import { createHmac, randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MCP_TOKEN_EXCHANGE_DEPRECATION, Rpc } from '@postbus/contracts';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

const JWT_SECRET = randomBytes(32).toString('base64');

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('mcp_legacy');
  system = await startSystem(env, { AUTH_CACHE_MS: '0', AUTH_JWT_SECRET: JWT_SECRET });
  account = await system.seedAccount({ platforms: ['threads'] });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

type Exchange = { status: number; headers: Headers; body: Record<string, any> };

async function exchange(url: string, key?: string): Promise<Exchange> {
  const res = await fetch(url, { method: 'POST', headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}
const hostAuth = (key?: string) => exchange(`${system.mcpHostUrl}/auth`, key);
const baseExchange = (key?: string) => exchange(`${system.baseUrl}/api/auth/mcp-token`, key);

function expectDeprecated(headers: Headers) {
  expect(headers.get('deprecation')).toBe(`@${Date.parse(MCP_TOKEN_EXCHANGE_DEPRECATION.deprecatedAt) / 1000}`);
  expect(headers.get('sunset')).toBe(new Date(MCP_TOKEN_EXCHANGE_DEPRECATION.sunsetAt).toUTCString());
  expect(headers.get('link')).toMatch(/rel="successor-version"/);
}

function rawCall(url: string, token: string, name: string, args: Record<string, unknown> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
}

/** An HS256 JWT signed with the configured secret, as auth would sign one, with claims of the test's choosing. */
function signJwt(claims: Record<string, unknown>): string {
  const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const head = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${head}.${createHmac('sha256', Buffer.from(JWT_SECRET, 'base64')).update(head).digest('base64url')}`;
}

describe('the deprecated API-key exchanges', () => {
  test('when an API key is exchanged at {mcp_host}/auth or {base_url}/api/auth/mcp-token, then a short-lived JWT comes back marked deprecated', async () => {
    for (const answer of [await hostAuth(account.apiKey), await baseExchange(account.apiKey)]) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
        tokenType: 'Bearer',
        expiresIn: 900,
        expiresAt: expect.any(String),
      });
      expect(Date.parse(answer.body.expiresAt)).toBeGreaterThan(Date.now());
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expectDeprecated(answer.headers);
      const claims = JSON.parse(Buffer.from(answer.body.token.split('.')[1], 'base64url').toString());
      expect(claims).toMatchObject({
        iss: system.baseUrl,
        aud: `${system.baseUrl}/api/mcp`,
        sub: account.userId,
        key_id: account.keyId,
      });
    }
  });

  test('when no key or a wrong key is sent, then 401 missing_api_key or invalid_api_key, still marked deprecated', async () => {
    for (const call of [hostAuth, baseExchange]) {
      const missing = await call();
      expect(missing).toMatchObject({ status: 401, body: { code: 'missing_api_key' } });
      expectDeprecated(missing.headers);
      expect(await call(`sk_live_${'x'.repeat(43)}`)).toMatchObject({ status: 401, body: { code: 'invalid_api_key' } });
    }
  });

  test("when the key's account may not use the API, then the exchange answers 403 api_access_disabled or plan_required", async () => {
    const own = await system.seedAccount({ platforms: [] });
    await system.bus.rpc.call(Rpc.authUpdateAccount, { accountId: own.accountId, plan: 'expired' });
    expect(await hostAuth(own.apiKey)).toMatchObject({ status: 403, body: { code: 'plan_required' } });
    await system.bus.rpc.call(Rpc.authUpdateAccount, { accountId: own.accountId, plan: 'pro', disabled: true });
    expect(await baseExchange(own.apiKey)).toMatchObject({ status: 403, body: { code: 'api_access_disabled' } });
  });

  test('when an agent uses the JWT at {mcp_host}/mcp and at {base_url}/api/mcp, then tools run as the key, and {mcp_host} answers are marked deprecated', async () => {
    const { body } = await hostAuth(account.apiKey);
    const client = new Client({ name: 'legacy-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${system.mcpHostUrl}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${body.token}` } },
      }),
    );
    const listed = await client.callTool({ name: 'svc_list_profiles', arguments: {} });
    expect(listed.isError).toBeFalsy();
    expect((listed.structuredContent as { profiles: { id: string }[] }).profiles.map((p) => p.id)).toEqual(
      account.profiles.map((p) => p.id),
    );
    await client.close();

    const viaHost = await rawCall(`${system.mcpHostUrl}/mcp`, body.token, 'svc_list_profiles');
    expect(viaHost.status).toBe(200);
    expectDeprecated(viaHost.headers);
    const viaBase = await rawCall(`${system.baseUrl}/api/mcp`, body.token, 'svc_list_profiles');
    expect(viaBase.status).toBe(200);
    expect(viaBase.headers.get('deprecation')).toBeNull();
  });

  test("when the key behind a JWT lacks a tool's REST scope, then 403 insufficient_scope naming that scope", async () => {
    const readOnly = await system.seedAccount({ platforms: ['threads'], scopes: ['post:read', 'account:read'] });
    const { body } = await hostAuth(readOnly.apiKey);
    expect((await rawCall(`${system.mcpHostUrl}/mcp`, body.token, 'svc_list_profiles')).status).toBe(200);
    const write = await rawCall(`${system.mcpHostUrl}/mcp`, body.token, 'svc_schedule_post', {
      platforms: ['threads'],
      caption: 'x',
    });
    expect(write.status).toBe(403);
    expect(write.headers.get('www-authenticate')).toContain('scope="post:write"');
  });

  test('when the key behind a JWT is revoked, then the JWT stops working at once', async () => {
    const own = await system.seedAccount({ platforms: ['threads'] });
    const { body } = await hostAuth(own.apiKey);
    expect((await rawCall(`${system.mcpHostUrl}/mcp`, body.token, 'svc_list_profiles')).status).toBe(200);
    await system.bus.rpc.call(Rpc.authRevokeKey, { keyId: own.keyId });
    const refused = await rawCall(`${system.mcpHostUrl}/mcp`, body.token, 'svc_list_profiles');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  test('when a JWT has expired, names another audience or is signed with another key, then it is refused', async () => {
    const now = Math.floor(Date.now() / 1000);
    const base = {
      iss: system.baseUrl,
      aud: `${system.baseUrl}/api/mcp`,
      sub: account.userId,
      acc: account.accountId,
      key_id: account.keyId,
      iat: now,
    };
    expect(
      (await rawCall(`${system.baseUrl}/api/mcp`, signJwt({ ...base, exp: now + 60 }), 'svc_list_profiles')).status,
    ).toBe(200);
    const verify = (token: string) =>
      system.bus.rpc.call(Rpc.authVerifyAccessToken, { token, resource: `${system.baseUrl}/api/mcp` });
    await expect(verify(signJwt({ ...base, iat: now - 120, exp: now - 60 }))).rejects.toMatchObject({
      code: 'invalid_api_key',
      message: expect.stringMatching(/expired/),
    });
    await expect(
      verify(signJwt({ ...base, exp: now + 60, aud: 'https://elsewhere.example/api/mcp' })),
    ).rejects.toMatchObject({ code: 'invalid_api_key', message: expect.stringMatching(/another resource/) });
    const forged = signJwt({ ...base, exp: now + 60 }).replace(
      /\.[\w-]+$/,
      `.${randomBytes(32).toString('base64url')}`,
    );
    await expect(verify(forged)).rejects.toMatchObject({ code: 'invalid_api_key' });
    expect(
      (
        await rawCall(
          `${system.mcpHostUrl}/mcp`,
          signJwt({ ...base, iat: now - 120, exp: now - 60 }),
          'svc_list_profiles',
        )
      ).status,
    ).toBe(401);
  });
});
