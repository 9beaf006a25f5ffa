import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Rpc } from '@postbus/contracts';
import { aJpeg, createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let other: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('mcp_agent_media_wait');
  system = await startSystem(env);
  account = await system.seedAccount({ platforms: ['threads'] });
  other = await system.seedAccount({ platforms: ['threads'] });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const bearer = (key: string) => ({ requestInit: { headers: { Authorization: `Bearer ${key}` } } });

/** The v2 client; `legacy` pins the 2025-11-25 handshake, `auto` speaks 2026-07-28 with this server. */
async function connect(key: string, mode: 'auto' | 'legacy' = 'auto'): Promise<Client> {
  const client = new Client({ name: 'agent-media-wait', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${system.baseUrl}/api/mcp`), bearer(key)));
  return client;
}

const linksOf = (result: { content?: unknown }) =>
  ((result.content ?? []) as { type: string; uri?: string }[])
    .filter((c) => c.type === 'resource_link')
    .map((c) => c.uri);

describe('media for agents without base64', () => {
  test('when an agent asks for an upload URL and PUTs a file to it, then the file is stored as the mediaId it was given, readable as a resource and usable in a post', async () => {
    const client = await connect(account.apiKey);
    const asked = await client.callTool({ name: 'svc_create_upload_url', arguments: { filename: 'cover.jpg' } });
    expect(asked.isError).toBeFalsy();
    const grant = asked.structuredContent as {
      mediaId: string;
      uploadUrl: string;
      method: string;
      expiresAt: string;
      maxBytes: number;
    };
    expect(grant).toMatchObject({ mediaId: expect.stringMatching(/^med_/), method: 'PUT', maxBytes: 50 * 1024 * 1024 });
    expect(grant.uploadUrl.startsWith(`${system.baseUrl}/uploads/`)).toBe(true);
    expect(linksOf(asked)).toEqual([`postbus://media/${grant.mediaId}`]);

    const bytes = aJpeg(4096);
    const put = await fetch(grant.uploadUrl, { method: 'PUT', body: bytes });
    expect(put.status).toBe(201);
    expect(await put.json()).toMatchObject({ success: true, mediaId: grant.mediaId });

    const read = await client.readResource({ uri: `postbus://media/${grant.mediaId}` });
    const asset = JSON.parse((read.contents[0] as { text: string }).text);
    expect(asset).toMatchObject({
      mediaId: grant.mediaId,
      contentType: 'image/jpeg',
      sizeBytes: 4096,
      status: 'ready',
    });

    const post = await client.callTool({
      name: 'svc_schedule_post',
      arguments: {
        platforms: ['threads'],
        caption: 'with an uploaded image',
        mediaId: grant.mediaId,
        scheduledTime: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    expect(post.isError).toBeFalsy();
    await client.close();
  });

  test('when an upload URL is used twice, tampered with, or sent bytes that are no media, then it is refused and nothing more is stored', async () => {
    const grant = await system.bus.rpc.call(Rpc.mediaCreateUploadUrl, {}, principalOf(account));
    expect((await fetch(grant.uploadUrl, { method: 'PUT', body: aJpeg(2048) })).status).toBe(201);
    const again = await fetch(grant.uploadUrl, { method: 'PUT', body: aJpeg(2048) });
    expect([again.status, ((await again.json()) as { code: string }).code]).toEqual([403, 'invalid_signature']);

    const fresh = await system.bus.rpc.call(Rpc.mediaCreateUploadUrl, {}, principalOf(account));
    const [payload, sig] = fresh.uploadUrl.split('/uploads/')[1].split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), accountId: other.accountId }),
    ).toString('base64url');
    const tampered = await fetch(`${system.baseUrl}/uploads/${forged}.${sig}`, { method: 'PUT', body: aJpeg(2048) });
    expect([tampered.status, ((await tampered.json()) as { code: string }).code]).toEqual([403, 'invalid_signature']);

    const text = await fetch(fresh.uploadUrl, { method: 'PUT', body: 'just some text, not an image' });
    expect(((await text.json()) as { code: string }).code).toBe('unsupported_media_type');
    await expect(
      system.bus.rpc.call(Rpc.mediaGet, { mediaId: fresh.mediaId }, principalOf(account)),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('upload URLs and the plan', () => {
  test('when the plan has expired, then no upload URL is given, and one given before is refused at the PUT', async () => {
    const lapsing = await system.seedAccount({ platforms: ['threads'] });
    const grant = await system.bus.rpc.call(Rpc.mediaCreateUploadUrl, {}, principalOf(lapsing));
    await system.bus.rpc.call(Rpc.authUpdateAccount, { accountId: lapsing.accountId, plan: 'expired' });
    const put = await fetch(grant.uploadUrl, { method: 'PUT', body: aJpeg(2048) });
    expect([put.status, ((await put.json()) as { code: string }).code]).toEqual([403, 'upload_plan_required']);
    await expect(system.bus.rpc.call(Rpc.mediaCreateUploadUrl, {}, principalOf(lapsing))).rejects.toMatchObject({
      code: 'upload_plan_required',
    });
  });
});

describe('waiting for a publish', () => {
  test('when an agent with a progressToken waits on a post due now, then it gets progress and the answer once the post is posted', async () => {
    for (const mode of ['auto', 'legacy'] as const) {
      const client = await connect(account.apiKey, mode);
      const created = await client.callTool({
        name: 'svc_schedule_post',
        arguments: { platforms: ['threads'], caption: `waited for (${mode})` },
      });
      const postId = (created.structuredContent as { postIds: string[] }).postIds[0];
      expect(linksOf(created)).toEqual([`postbus://posts/${postId}`]);
      const progress: { progress: number; total?: number; message?: string }[] = [];
      const waited = await client.callTool(
        { name: 'svc_get_post_status', arguments: { postId, waitSeconds: 30 } },
        { onprogress: (p) => progress.push(p), timeout: 40_000 },
      );
      expect([mode, (waited.structuredContent as { status: string }).status]).toEqual([mode, 'posted']);
      expect(progress.length).toBeGreaterThanOrEqual(1);
      expect(progress[0]).toMatchObject({ total: 30, message: expect.stringMatching(/^Post is \w+\.$/) });
      const read = await client.readResource({ uri: `postbus://posts/${postId}` });
      expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ id: postId, status: 'posted' });
      await client.close();
    }
  });

  test('when an older client waits without a progressToken, then it gets the plain status at the end', async () => {
    const client = new ClientV1({ name: 'sdk-v1-agent', version: '1.0.0' });
    await client.connect(new TransportV1(new URL(`${system.baseUrl}/api/mcp`), bearer(account.apiKey)));
    const created = await client.callTool({
      name: 'svc_schedule_post',
      arguments: { platforms: ['threads'], caption: 'waited for by an older client' },
    });
    const postId = (created.structuredContent as { postIds: string[] }).postIds[0];
    const waited = await client.callTool(
      { name: 'svc_get_post_status', arguments: { postId, waitSeconds: 30 } },
      undefined,
      { timeout: 40_000 },
    );
    expect((waited.structuredContent as { status: string }).status).toBe('posted');
    const notYet = await client.callTool({ name: 'svc_get_post_status', arguments: { postId, waitSeconds: 31 } });
    expect([notYet.isError, JSON.parse((notYet.content as { text: string }[])[0].text).code]).toEqual([
      true,
      'validation_error',
    ]);
    await client.close();
  });

  test("when resources are read, then templates are listed, another account's post is not found, and an anonymous read is 401", async () => {
    const client = await connect(account.apiKey);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['postbus://posts/{id}', 'postbus://media/{id}']);
    const theirs = await system.bus.rpc.call(
      Rpc.postsCreate,
      {
        mode: 'posts',
        body: {
          platforms: ['threads'],
          caption: 'not yours',
          scheduledTime: new Date(Date.now() + 86_400_000).toISOString(),
        },
      },
      principalOf(other),
    );
    await expect(client.readResource({ uri: `postbus://posts/${theirs.postIds[0]}` })).rejects.toThrow(/not found/i);
    await client.close();
    const anonymous = await fetch(`${system.baseUrl}/api/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'resources/read',
        params: { uri: `postbus://posts/${theirs.postIds[0]}` },
      }),
    });
    expect(anonymous.status).toBe(401);

    const mediaOnly = await system.seedAccount({ platforms: ['threads'], scopes: ['media:write'] });
    const denied = await fetch(`${system.baseUrl}/api/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        authorization: `Bearer ${mediaOnly.apiKey}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'resources/read',
        params: { uri: 'postbus://posts/pst_any' },
      }),
    });
    expect(denied.status).toBe(403);
    expect(denied.headers.get('www-authenticate')).toContain('scope="post:read"');
  });
});

function principalOf(a: SeededAccount) {
  return {
    accountId: a.accountId,
    userId: a.userId,
    credential: { type: 'api_key' as const, id: a.keyId },
    scopes: ['post:write', 'post:read', 'media:write'],
    profileIds: 'all' as const,
  };
}
