import { MCP_MAX_BODY_BYTES, MCP_UPLOAD_BASE64_MAX_CHARS } from '@postbus/contracts';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { ANONYMOUS_MAX_BODY_BYTES } from '../../../services/mcp/src/entry-points/http/body-limits';
import { rawPost } from './raw-http';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('mcp_hostile');
  system = await startSystem(env);
  account = await system.seedAccount({ platforms: [] });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'hostile-test', version: '1.0.0' } },
};
const refusal = (message: RegExp) => ({
  jsonrpc: '2.0',
  error: { code: -32000, message: expect.stringMatching(message) },
  id: null,
});

/** The same endpoint reached three ways: the mcp service itself, through the gateway, and on the deprecated {mcp_host}. */
const endpoints = [
  ['the mcp service directly', () => `${system.httpUrls.mcp}/api/mcp`],
  ['the gateway', () => `${system.baseUrl}/api/mcp`],
  ['the deprecated mcp host', () => `${system.mcpHostUrl}/mcp`],
] as const;

describe.each(endpoints)('oversize bodies on %s', (_where, url) => {
  test('when an anonymous body declares 70 MB, then 413 with a JSON-RPC error before the body is sent', async () => {
    const answer = await rawPost(url(), { contentLength: 70 * 1024 * 1024, sendThenWait: 64 * 1024 });
    expect(answer).toEqual({ status: 413, body: refusal(/Payload Too Large.*65536 bytes/) });
  });

  test('when an anonymous body streams 2 MB without a length, then 413 as soon as the anonymous limit is passed', async () => {
    const answer = await rawPost(url(), { sendThenWait: 2 * 1024 * 1024 });
    expect(answer).toEqual({ status: 413, body: refusal(/Payload Too Large/) });
  });

  test('when a body streams past the anonymous limit with an invalid key, then 413: a bad credential buys no larger body', async () => {
    const answer = await rawPost(url(), {
      headers: { authorization: `Bearer sk_live_${'z'.repeat(43)}` },
      sendThenWait: ANONYMOUS_MAX_BODY_BYTES + 64 * 1024,
    });
    expect(answer.status).toBe(413);
  });

  test('when a valid key streams past 1 MiB, then 413 naming the REST upload for bigger files', async () => {
    const answer = await rawPost(url(), {
      headers: { authorization: `Bearer ${account.apiKey}` },
      sendThenWait: MCP_MAX_BODY_BYTES + 64 * 1024,
    });
    expect(answer).toEqual({ status: 413, body: refusal(/1048576 bytes.*\/api\/v1\/media/) });
  });

  test('when the body is not JSON or is compressed, then 415 without reading it', async () => {
    expect((await rawPost(url(), { headers: { 'content-type': 'text/plain' }, sendThenWait: 1024 })).status).toBe(415);
    expect((await rawPost(url(), { headers: { 'content-encoding': 'gzip' }, sendThenWait: 1024 })).status).toBe(415);
  });
});

describe('bodies within the limits', () => {
  test('when a valid key sends svc_upload_media with content past its cap in a body under 1 MiB, then the body is read and the tool answers validation_error in-band', async () => {
    const content = 'A'.repeat(MCP_UPLOAD_BASE64_MAX_CHARS + 4);
    const call = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'svc_upload_media', arguments: { content } },
    };
    expect(JSON.stringify(call).length).toBeGreaterThan(ANONYMOUS_MAX_BODY_BYTES);
    expect(JSON.stringify(call).length).toBeLessThan(MCP_MAX_BODY_BYTES);
    const answer = await rawPost(`${system.baseUrl}/api/mcp`, {
      headers: { authorization: `Bearer ${account.apiKey}` },
      json: call,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.result.isError).toBe(true);
    expect(JSON.parse(answer.body.result.content[0].text)).toMatchObject({ code: 'validation_error' });
  });

  test('when the tools are listed, then svc_upload_media states its base64 cap and where bigger files go', async () => {
    const answer = await rawPost(`${system.baseUrl}/api/mcp`, {
      json: { jsonrpc: '2.0', id: 3, method: 'tools/list' },
    });
    const upload = answer.body.result.tools.find((t: { name: string }) => t.name === 'svc_upload_media');
    expect(upload.inputSchema.properties.content.maxLength).toBe(MCP_UPLOAD_BASE64_MAX_CHARS);
    expect(upload.description).toMatch(/POST \{base_url\}\/api\/v1\/media/);
    expect(upload.description).toMatch(/svc_add_media_from_url/);
  });

  test('when a body is not valid JSON, then 400 with the JSON-RPC parse error', async () => {
    const broken = await postText(`${system.httpUrls.mcp}/api/mcp`, '{"jsonrpc"');
    expect(broken).toEqual({
      status: 400,
      body: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null },
    });
  });
});

describe.each(endpoints)('foreign callers on %s (DNS rebinding)', (_where, url) => {
  test('when the Origin is another site, then 403 with a JSON-RPC error', async () => {
    const answer = await rawPost(url(), { headers: { origin: 'http://evil.example' }, json: INITIALIZE });
    expect(answer).toEqual({ status: 403, body: refusal(/Origin/) });
  });

  test('when the Origin is null, then 403', async () => {
    const answer = await rawPost(url(), { headers: { origin: 'null' }, json: INITIALIZE });
    expect(answer).toEqual({ status: 403, body: refusal(/Origin/) });
  });

  test('when the Host is another name, then 403 before the body is read', async () => {
    const answer = await rawPost(url(), {
      headers: { host: 'evil.example' },
      contentLength: 70 * 1024 * 1024,
      sendThenWait: 1024,
    });
    expect(answer).toEqual({ status: 403, body: refusal(/Host/) });
  });

  test('when the Host and Origin are ours, or there is no Origin, then initialize answers', async () => {
    const ours = new URL(url());
    const allowed: Record<string, string>[] = [
      { host: ours.host, origin: ours.origin },
      { origin: new URL(system.baseUrl).origin },
      { origin: 'http://localhost:5173' },
      {},
    ];
    for (const headers of allowed) {
      const answer = await rawPost(url(), { headers, json: INITIALIZE });
      expect([headers, answer.status, answer.body?.result?.serverInfo?.name]).toEqual([headers, 200, 'postbus']);
    }
  });
});

describe('forwarded hosts', () => {
  test('when a client names a foreign X-Forwarded-Host to the mcp service, then 403', async () => {
    const answer = await rawPost(`${system.httpUrls.mcp}/api/mcp`, {
      headers: { 'x-forwarded-host': 'evil.example' },
      json: INITIALIZE,
    });
    expect(answer.status).toBe(403);
  });

  test('when a client sends a foreign Host to the gateway with our name in X-Forwarded-Host, then the gateway forwards the Host it saw and mcp refuses it', async () => {
    const answer = await rawPost(`${system.baseUrl}/api/mcp`, {
      headers: { host: 'evil.example', 'x-forwarded-host': new URL(system.baseUrl).host },
      json: INITIALIZE,
    });
    expect(answer.status).toBe(403);
  });
});

async function postText(url: string, text: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: text,
  });
  return { status: res.status, body: await res.json() };
}
