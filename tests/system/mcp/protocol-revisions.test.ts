import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
  type VersionNegotiationMode,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { buildToolRegistry } from '../../../services/mcp/src/tools/tool-registry';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('mcp_revisions');
  system = await startSystem(env);
  account = await system.seedAccount({ platforms: ['threads'] });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const TOOL_NAMES = [...buildToolRegistry().keys()].sort();
const bearer = (key?: string) => (key ? { requestInit: { headers: { Authorization: `Bearer ${key}` } } } : undefined);
const endpoint = () => new URL(`${system.baseUrl}/api/mcp`);

/** The SDK v1 client (@modelcontextprotocol/sdk), as most deployed agents still run it. */
async function connectV1(key?: string): Promise<ClientV1> {
  const client = new ClientV1({ name: 'sdk-v1-agent', version: '1.0.0' });
  await client.connect(new TransportV1(endpoint(), bearer(key)));
  return client;
}

/** The SDK v2 client (@modelcontextprotocol/client); `auto` probes with server/discover and speaks 2026-07-28 when the server does. */
async function connectV2(
  mode: VersionNegotiationMode,
  key?: string,
  supportedProtocolVersions?: string[],
): Promise<ClientV2> {
  const client = new ClientV2(
    { name: 'sdk-v2-agent', version: '1.0.0' },
    { versionNegotiation: { mode }, ...(supportedProtocolVersions && { supportedProtocolVersions }) },
  );
  await client.connect(new TransportV2(endpoint(), bearer(key)));
  return client;
}

const profileIdsOf = (result: Record<string, unknown>) =>
  (result.structuredContent as { profiles: { id: string }[] }).profiles.map((p) => p.id);

/** A raw 2026-07-28 request: the protocol version in `_meta`, and the standard headers that must match the body. */
function modernPost(
  method: string,
  params: Record<string, unknown>,
  opts: { key?: string; headers?: Record<string, string> } = {},
) {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return fetch(`${system.baseUrl}/api/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...name,
      ...(opts.key && { authorization: `Bearer ${opts.key}` }),
      ...opts.headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        },
      },
    }),
  });
}

describe('third-party clients', () => {
  test('when the v1 SDK client connects without credentials, then it negotiates 2025-11-25 and lists every tool', async () => {
    const transport = new TransportV1(endpoint());
    const client = new ClientV1({ name: 'sdk-v1-agent', version: '1.0.0' });
    await client.connect(transport);
    expect([client.getServerVersion()?.name, transport.protocolVersion]).toEqual(['postbus', '2025-11-25']);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
    await client.close();
  });

  test('when the v1 SDK client calls tools with an API key, then they run as the key', async () => {
    const client = await connectV1(account.apiKey);
    const listed = await client.callTool({ name: 'svc_list_profiles', arguments: {} });
    expect(listed.isError).toBeFalsy();
    expect(profileIdsOf(listed)).toEqual(account.profiles.map((p) => p.id));
    await client.close();
  });

  test('when the v2 SDK client negotiates, then it speaks 2026-07-28 and anonymous listing gives every tool', async () => {
    const client = await connectV2('auto');
    expect([client.getProtocolEra(), client.getNegotiatedProtocolVersion()]).toEqual(['modern', '2026-07-28']);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
    expect(tools.find((t) => t.name === 'svc_schedule_post')!.outputSchema?.properties).toHaveProperty('postIds');
    await client.close();
  });

  test('when the v2 SDK client calls tools over 2026-07-28 with an API key, then results and in-band errors are the same as on 2025-11-25', async () => {
    const client = await connectV2('auto', account.apiKey);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const listed = await client.callTool({ name: 'svc_list_profiles', arguments: {} });
    expect(listed.isError).toBeFalsy();
    expect(profileIdsOf(listed)).toEqual(account.profiles.map((p) => p.id));
    const missing = await client.callTool({ name: 'svc_get_post_status', arguments: { postId: 'pst_missing' } });
    expect(missing.isError).toBe(true);
    expect(JSON.parse((missing.content as { text: string }[])[0].text)).toMatchObject({ code: 'post_not_found' });
    await client.close();
  });

  test('when the v2 SDK client calls a tool over 2026-07-28 without credentials, then the call is refused with 401', async () => {
    const client = await connectV2('auto');
    await expect(client.callTool({ name: 'svc_list_profiles', arguments: {} })).rejects.toMatchObject({
      status: 401,
      message: expect.stringContaining('missing_api_key'),
    });
    await client.close();
  });

  test('when the v2 SDK client negotiates at the deprecated {mcp_host}/mcp, then it speaks 2026-07-28 there too and answers are marked deprecated', async () => {
    const seen: Response[] = [];
    const client = new ClientV2({ name: 'sdk-v2-agent', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(
      new TransportV2(new URL(`${system.mcpHostUrl}/mcp`), {
        ...bearer(account.apiKey),
        fetch: async (url, init) => {
          const res = await fetch(url, init);
          seen.push(res);
          return res;
        },
      }),
    );
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(profileIdsOf(await client.callTool({ name: 'svc_list_profiles', arguments: {} }))).toEqual(
      account.profiles.map((p) => p.id),
    );
    expect(seen.length).toBeGreaterThan(0);
    for (const res of seen) expect(res.headers.get('deprecation')).toMatch(/^@\d+$/);
    await client.close();
  });

  test.each([
    ['2025-11-25', undefined],
    ['2025-06-18', ['2025-06-18']],
  ])(
    'when the v2 SDK client stays on the 2025 handshake at %s, then it lists and calls tools',
    async (version, supported) => {
      const client = await connectV2('legacy', account.apiKey, supported);
      expect([client.getProtocolEra(), client.getNegotiatedProtocolVersion()]).toEqual(['legacy', version]);
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
      expect(profileIdsOf(await client.callTool({ name: 'svc_list_profiles', arguments: {} }))).toEqual(
        account.profiles.map((p) => p.id),
      );
      await client.close();
    },
  );
});

describe('the 2026-07-28 wire', () => {
  test('when server/discover is sent without credentials, then it names the revision, the tools capability and the server', async () => {
    const res = await modernPost('server/discover', {});
    expect(res.status).toBe(200);
    const { result } = (await res.json()) as { result: Record<string, any> };
    // Only stateless revisions are listed here; 2025 clients negotiate theirs with initialize.
    expect(result.supportedVersions).toEqual(['2026-07-28']);
    expect(result.capabilities).toMatchObject({ tools: {} });
    expect(result.instructions).toContain('svc_schedule_post');
    expect(result._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({ name: 'postbus' });
    expect(result).toMatchObject({ resultType: 'complete', ttlMs: 300_000, cacheScope: 'public' });
  });

  test('when tools are listed, then the result carries resultType and the cache hints (public, five minutes)', async () => {
    const res = await modernPost('tools/list', {});
    const { result } = (await res.json()) as { result: Record<string, any> };
    expect(result).toMatchObject({ resultType: 'complete', ttlMs: 300_000, cacheScope: 'public' });
    expect(result.tools.map((t: { name: string }) => t.name).sort()).toEqual(TOOL_NAMES);
  });

  test('when a tool is called without credentials or without its scope, then 401 or 403 with the same challenges as on 2025-11-25', async () => {
    const anonymous = await modernPost('tools/call', { name: 'svc_list_profiles', arguments: {} });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe(
      `Bearer scope="mcp:read mcp:write", resource_metadata="${system.baseUrl}/.well-known/oauth-protected-resource/api/mcp"`,
    );
    const reader = await system.seedAccount({ platforms: ['threads'], scopes: ['post:read'] });
    const write = await modernPost(
      'tools/call',
      { name: 'svc_schedule_post', arguments: { platforms: ['threads'], caption: 'x' } },
      { key: reader.apiKey },
    );
    expect(write.status).toBe(403);
    expect(write.headers.get('www-authenticate')).toContain('scope="post:write"');
  });

  test('when a tool is called with an API key, then the result carries resultType complete and the tool output', async () => {
    const res = await modernPost('tools/call', { name: 'svc_list_profiles', arguments: {} }, { key: account.apiKey });
    expect(res.status).toBe(200);
    const { id, result } = (await res.json()) as { id: number; result: Record<string, any> };
    expect(id).toBe(7);
    expect(result.resultType).toBe('complete');
    expect(result.structuredContent.profiles.map((p: { id: string }) => p.id)).toEqual(
      account.profiles.map((p) => p.id),
    );
  });

  test('when the Mcp-Method header disagrees with the body, then 400 HeaderMismatch (-32020), with or without credentials, and nothing is called', async () => {
    const writer = await system.seedAccount({ platforms: ['threads'] });
    for (const key of [undefined, writer.apiKey]) {
      const res = await modernPost(
        'tools/call',
        { name: 'svc_schedule_post', arguments: { platforms: ['threads'], caption: 'never stored' } },
        { key, headers: { 'mcp-method': 'tools/list' } },
      );
      expect([
        key ? 'with a key' : 'anonymous',
        res.status,
        ((await res.json()) as { error: { code: number } }).error.code,
      ]).toEqual([key ? 'with a key' : 'anonymous', 400, -32020]);
    }
    const listed = await modernPost(
      'tools/call',
      { name: 'svc_list_scheduled_posts', arguments: {} },
      { key: writer.apiKey },
    );
    expect(
      ((await listed.json()) as { result: { structuredContent: { data: unknown[] } } }).result.structuredContent.data,
    ).toEqual([]);
  });

  test('when the Mcp-Name header disagrees with the tool called, then 400 HeaderMismatch (-32020)', async () => {
    const res = await modernPost(
      'tools/call',
      { name: 'svc_list_profiles', arguments: {} },
      { key: account.apiKey, headers: { 'mcp-name': 'svc_schedule_post' } },
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32020);
  });

  test('when a request names a revision the server does not serve, then 400 UnsupportedProtocolVersion listing the served ones', async () => {
    const res = await fetch(`${system.baseUrl}/api/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2099-01-01',
        'mcp-method': 'tools/list',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2099-01-01',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { code: number; data: { supported: string[] } } };
    expect(error.code).toBe(-32022);
    expect(error.data.supported).toContain('2026-07-28');
  });
});
