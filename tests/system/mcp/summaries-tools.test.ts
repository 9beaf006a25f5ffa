import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTestEnv, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let client: Client;
let from: string;

const TOOLS = ['svc_get_account_summary', 'svc_get_billing_summary', 'svc_get_analytics'];

beforeAll(async () => {
  env = await createTestEnv('mcp_summaries_tools');
  system = await startSystem(env, { INSIGHTS_OFFSETS: '1s,2s,3s', INSIGHTS_INTERVAL_MS: '100' });
  account = await system.seedAccount({ platforms: ['threads'] });
  client = await connect(account.apiKey);
  from = new Date(Date.now() - 60_000).toISOString();
  const created = await rest('/api/v1/publish', account.apiKey, {
    platforms: ['threads'],
    caption: 'counted by the tools',
    category: 'agents',
  });
  await waitFor(
    async () =>
      (await rest(`/api/v1/posts/${created.postIds[0]}`, account.apiKey)).status === 'posted' ? true : undefined,
    { timeoutMs: 15_000, what: 'the post to be posted' },
  );
});
afterAll(async () => {
  await client?.close();
  await system?.stop();
  await env?.drop();
});

async function connect(key: string): Promise<Client> {
  const c = new Client({ name: 'summaries-tools-test', version: '1.0.0' });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(`${system.baseUrl}/api/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return c;
}

async function rest(path: string, key: string, body?: unknown): Promise<any> {
  const res = await fetch(`${system.baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

async function call(
  name: string,
  args: Record<string, unknown> = {},
  c = client,
): Promise<{ ok: true; data: any } | { ok: false; error: string; code: string }> {
  const r = await c.callTool({ name, arguments: args });
  if (r.isError) return { ok: false, ...JSON.parse((r.content as { text: string }[])[0].text) };
  return { ok: true, data: r.structuredContent };
}

describe('the account, billing and analytics tools', () => {
  test('when the tools are listed, then each names its REST twin and declares its input and output', async () => {
    const { tools } = await client.listTools();
    for (const name of TOOLS) {
      const tool = tools.find((t) => t.name === name)!;
      expect(tool.description).not.toMatch(/Not available/);
      expect(tool.annotations).toMatchObject({ readOnlyHint: true });
      expect(tool.outputSchema).toMatchObject({ type: 'object' });
    }
    expect(tools.find((t) => t.name === 'svc_get_account_summary')!._meta?.['postbus/rest']).toBe(
      'GET /api/v1/account, scope account:read',
    );
    expect(tools.find((t) => t.name === 'svc_get_billing_summary')!._meta?.['postbus/rest']).toBe(
      'GET /api/v1/billing, scope account:read',
    );
    expect(tools.find((t) => t.name === 'svc_get_analytics')!._meta?.['postbus/rest']).toBe(
      'GET /api/v1/analytics, scope post:read',
    );
    expect(tools.find((t) => t.name === 'svc_get_analytics')!.inputSchema.properties).toHaveProperty('groupBy');
  });

  test("when an agent asks for the account summary, then it is the REST answer, counting the account's post", async () => {
    const tool = await call('svc_get_account_summary');
    expect(tool).toEqual({ ok: true, data: await rest('/api/v1/account', account.apiKey) });
    const data = (tool as { data: any }).data;
    expect(data.credential).toMatchObject({ type: 'api_key', id: account.keyId, name: 'development' });
    expect(data.posts).toMatchObject({ total: 1, byStatus: { posted: 1 } });
    expect(data.profiles.byPlatform.threads).toEqual({ active: 1, needsReconnect: 0 });
  });

  test('when an agent asks for the billing summary, then it is the REST answer', async () => {
    const tool = await call('svc_get_billing_summary');
    expect(tool).toEqual({ ok: true, data: await rest('/api/v1/billing', account.apiKey) });
    expect((tool as { data: any }).data).toMatchObject({
      plan: 'trial',
      scheduling: { used: 1 },
      storage: { usedBytes: 0 },
    });
  });

  test('when an agent asks for analytics by category, then it is the REST answer with the post and its engagement', async () => {
    const to = new Date(Date.now() + 60_000).toISOString();
    await waitFor(
      async () =>
        ((await call('svc_get_analytics', { from, to })) as { data: any }).data.totals.engagement.posts === 1 ||
        undefined,
      { what: 'engagement to be collected' },
    );

    const tool = await call('svc_get_analytics', { from, to, groupBy: 'category' });

    expect(tool).toEqual({
      ok: true,
      data: await rest(
        `/api/v1/analytics?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&groupBy=category`,
        account.apiKey,
      ),
    });
    const data = (tool as { data: any }).data;
    expect(data.groups).toHaveLength(1);
    expect(data.groups[0]).toMatchObject({
      key: 'agents',
      scheduled: 1,
      posted: 1,
      successRate: 1,
      engagement: { posts: 1, views: expect.any(Number) },
    });
  });

  test('when the analytics arguments are wrong, then the REST code comes back in-band', async () => {
    expect(await call('svc_get_analytics', { groupBy: 'week' })).toMatchObject({
      ok: false,
      code: 'validation_error',
      error: expect.stringMatching(/groupBy/),
    });
    expect(await call('svc_get_analytics', { from: 'last week' })).toMatchObject({
      ok: false,
      code: 'validation_error',
      error: expect.stringMatching(/from/),
    });
    expect(await call('svc_get_analytics', { since: '2026-01-01T00:00:00Z' })).toMatchObject({
      ok: false,
      code: 'validation_error',
    });
  });

  test('when the key lacks the REST scope of a tool, then the call answers 403 insufficient_scope', async () => {
    const reader = await system.seedAccount({ platforms: [], scopes: ['post:read'] });
    const res = await fetch(`${system.baseUrl}/api/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${reader.apiKey}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'svc_get_billing_summary', arguments: {} },
      }),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('scope="account:read"');
    const restricted = await connect(reader.apiKey);
    expect(await call('svc_get_analytics', {}, restricted)).toMatchObject({ ok: true });
    await restricted.close();
  });
});
