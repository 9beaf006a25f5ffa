import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MCP_TOOL_NAMES } from '@postbus/contracts';
import { createTestEnv, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('mcp_endpoint');
  system = await startSystem(env);
  account = await system.seedAccount({ platforms: ['threads'] });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

async function connect(key?: string): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(
    new URL(`${system.baseUrl}/api/mcp`),
    key ? { requestInit: { headers: { Authorization: `Bearer ${key}` } } } : undefined,
  );
  await client.connect(transport);
  return client;
}

function rawCall(body: unknown, key?: string) {
  return fetch(`${system.baseUrl}/api/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    body: JSON.stringify(body),
  });
}

function parsed(result: { content: unknown }): { error: string; code: string } {
  return JSON.parse((result.content as { text: string }[])[0].text);
}

describe('the agent endpoint', () => {
  test('when an anonymous client lists tools, then every tool comes back with input schemas and annotations', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.annotations).toBeDefined();
    }
    const schedule = tools.find((t) => t.name === 'svc_schedule_post')!;
    expect(schedule.outputSchema?.properties).toHaveProperty('postIds');
    expect(schedule.annotations?.readOnlyHint).toBe(false);
    expect(tools.find((t) => t.name === 'svc_get_post_status')!.annotations?.readOnlyHint).toBe(true);
    await client.close();
  });

  test('when a tool is called without credentials, then 401 with the scope to ask for and no error (RFC 6750 §3.1); with a wrong key, then invalid_token', async () => {
    const metadata = `resource_metadata="${system.baseUrl}/.well-known/oauth-protected-resource/api/mcp"`;
    const res = await rawCall({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'svc_get_post_status', arguments: { postId: 'pst_x' } },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer scope="mcp:read mcp:write", ${metadata}`);
    const wrongKey = await rawCall(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'svc_get_post_status', arguments: { postId: 'pst_x' } },
      },
      `sk_live_${'z'.repeat(43)}`,
    );
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", ${metadata}`);
  });

  test('when the protected resource metadata is read, then it names the base URL as authorization server and only the scopes that grant access to the resource', async () => {
    const res = await fetch(`${system.baseUrl}/.well-known/oauth-protected-resource/api/mcp`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { scopes_supported: string[] };
    expect(body).toMatchObject({ resource: `${system.baseUrl}/api/mcp`, authorization_servers: [system.baseUrl] });
    expect(body.scopes_supported).toEqual(expect.arrayContaining(['mcp:read', 'mcp:write']));
    // A refresh token is the authorization server's business: its metadata lists offline_access, the resource's does not.
    expect(body.scopes_supported).not.toContain('offline_access');
    const server = (await (await fetch(`${system.baseUrl}/.well-known/oauth-authorization-server`)).json()) as {
      scopes_supported: string[];
    };
    expect(server.scopes_supported).toContain('offline_access');
  });

  test('when an agent schedules a post with an API key, then it is published through the same pipeline and readable by its status tool', async () => {
    const client = await connect(account.apiKey);
    const caption = `from an agent ${Date.now()}`;
    const created = await client.callTool({
      name: 'svc_schedule_post',
      arguments: { platforms: ['threads'], caption },
    });
    expect(created.isError).toBeFalsy();
    const { postIds } = created.structuredContent as { postIds: string[] };
    expect(postIds).toHaveLength(1);
    const post = await waitFor(
      async () => {
        const r = await client.callTool({ name: 'svc_get_post_status', arguments: { postId: postIds[0] } });
        const p = r.structuredContent as { status: string; permalink: string | null };
        return p.status === 'scheduled' ? undefined : p;
      },
      { timeoutMs: 15_000, what: 'the post to be published' },
    );
    expect(post.status).toBe('posted');
    expect(post.permalink).toMatch(/threads\.net/);
    await client.close();
  });

  test('when a tool call breaks a rule, then the same { error, code } as REST comes back in-band', async () => {
    const client = await connect(account.apiKey);
    const noPlatforms = await client.callTool({ name: 'svc_schedule_post', arguments: { caption: 'x' } });
    expect(noPlatforms.isError).toBe(true);
    expect(parsed(noPlatforms as never).code).toBe('missing_platforms');
    const missing = await client.callTool({ name: 'svc_get_post_status', arguments: { postId: 'pst_missing' } });
    expect(missing.isError).toBe(true);
    expect(parsed(missing as never)).toEqual({ error: expect.any(String), code: 'post_not_found' });
    const badArgs = await client.callTool({ name: 'svc_get_post_status', arguments: {} });
    expect(parsed(badArgs as never).code).toBe('validation_error');
    await client.close();
  });

  test('when a key lacks the REST scope of the tool, then 403 insufficient_scope', async () => {
    const readOnly = await system.seedAccount({ platforms: ['threads'], scopes: ['post:read'] });
    const res = await rawCall(
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'svc_schedule_post', arguments: { platforms: ['threads'], caption: 'x' } },
      },
      readOnly.apiKey,
    );
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(res.headers.get('www-authenticate')).toContain('scope="post:write"');
    // An API key gets REST scopes, never the OAuth ones: the challenge and the message name only what a key can hold.
    expect(res.headers.get('www-authenticate')).not.toContain('mcp:');
    expect(await res.json()).toEqual({ error: expect.stringContaining('post:write'), code: 'insufficient_scope' });
  });

  test('when the server card is read at each discovery address, then it is the same card naming the endpoint', async () => {
    const cards = await Promise.all(
      ['/.well-known/mcp/server-card.json', '/.well-known/mcp.json', '/api/mcp/server-card'].map(
        async (p) => (await (await fetch(`${system.baseUrl}${p}`)).json()) as { remotes: unknown },
      ),
    );
    expect(cards[1]).toEqual(cards[0]);
    expect(cards[2]).toEqual(cards[0]);
    expect(cards[0].remotes).toEqual([{ type: 'streamable-http', url: `${system.baseUrl}/api/mcp` }]);
  });

  test('when GET opens a stream on the stateless endpoint, then 405', async () => {
    const res = await fetch(`${system.baseUrl}/api/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
  });
});
