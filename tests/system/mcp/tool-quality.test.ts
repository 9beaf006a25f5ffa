import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { PLATFORMS } from '@postbus/contracts';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

/**
 * Bytes of the tools/list answer (2025-11-25, JSON, through the gateway) before titles, property
 * descriptions and the compact listing: measured on this test system by the first version of this
 * file, when every description carried its REST twin and every output schema was listed in full.
 */
const TOOLS_LIST_BYTES_BEFORE = 116_853;

let env: TestEnv;
let system: RunningSystem;

beforeAll(async () => {
  env = await createTestEnv('mcp_tool_quality');
  system = await startSystem(env);
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

async function listRaw(): Promise<{ bytes: number; tools: any[] }> {
  const res = await fetch(`${system.baseUrl}/api/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  const text = await res.text();
  expect(res.status).toBe(200);
  return { bytes: Buffer.byteLength(text), tools: JSON.parse(text).result.tools };
}

/** Every property of a schema (nested objects, array items, anyOf branches), with its path. */
function propertiesOf(schema: any, prefix = ''): [string, any][] {
  const found: [string, any][] = [];
  for (const [name, property] of Object.entries<any>(schema?.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    found.push([path, property], ...propertiesOf(property, path));
    for (const branch of property.anyOf ?? []) found.push(...propertiesOf(branch, path));
    if (property.items) found.push(...propertiesOf(property.items, `${path}[]`));
  }
  return found;
}

describe('the tool list an agent reads', () => {
  test('when tools are listed, then the answer is at most half its former size', async () => {
    const { bytes } = await listRaw();
    expect(bytes).toBeLessThanOrEqual(TOOLS_LIST_BYTES_BEFORE / 2);
  });

  test('when tools are listed, then each has a short title, a description of its own and every argument described', async () => {
    const { tools } = await listRaw();
    const undescribed: string[] = [];
    for (const tool of tools) {
      expect({
        name: tool.name,
        title: typeof tool.title === 'string' && tool.title.length > 0 && tool.title.length <= 40,
      }).toEqual({ name: tool.name, title: true });
      expect(tool.description).not.toMatch(/REST twin/);
      for (const [path, property] of propertiesOf(tool.inputSchema))
        if (typeof property.description !== 'string' || !property.description) undescribed.push(`${tool.name} ${path}`);
    }
    expect(undescribed).toEqual([]);
    expect(tools.find((t) => t.name === 'svc_upload_media').title).toMatch(/base64/);
  });

  test('when tools are listed, then platforms is a closed choice, required where a post is created', async () => {
    const { tools } = await listRaw();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of ['svc_schedule_post', 'svc_draft_post', 'svc_validate_post_policy']) {
      expect(byName.get(name).inputSchema.properties.platforms.items.enum).toEqual([...PLATFORMS]);
    }
    expect(byName.get('svc_schedule_post').inputSchema.required).toContain('platforms');
    expect(byName.get('svc_draft_post').inputSchema.required).toContain('platforms');
    expect(byName.get('svc_validate_post_policy').inputSchema.required ?? []).not.toContain('platforms');
  });

  test('when tools are listed, then every tool creating posts takes idempotencyKey and externalId', async () => {
    const { tools } = await listRaw();
    for (const name of ['svc_schedule_post', 'svc_draft_post']) {
      const properties = tools.find((t) => t.name === name).inputSchema.properties;
      expect([name, Object.keys(properties)]).toEqual([name, expect.arrayContaining(['idempotencyKey', 'externalId'])]);
    }
  });

  test("when a v2 client connects, then the server names its icon, which is served from the endpoint's origin as SVG", async () => {
    const client = new Client({ name: 'icon-check', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${system.baseUrl}/api/mcp`)));
    const icons = client.getServerVersion()?.icons ?? [];
    await client.close();
    expect(icons).toEqual([{ src: `${system.baseUrl}/api/mcp/icon.svg`, mimeType: 'image/svg+xml', sizes: ['any'] }]);
    const res = await fetch(icons[0].src);
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'image/svg+xml; charset=utf-8']);
    expect(await res.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  });
});
