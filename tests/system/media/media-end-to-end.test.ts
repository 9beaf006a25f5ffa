import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MEDIA_MAX_BYTES, Rpc } from '@postbus/contracts';
import { aJpeg, anMp4, type SeededAccount } from '@postbus/testing';
import { api } from '../support/posts-api';
import { useSystem } from '../support/use-system';
import { callTool } from '../support/mcp-client';

const ctx = useSystem('e2e_media');
let origin: Server;
let originUrl: string;

// real files: every stored file is read by ffprobe
const JPEG = aJpeg(40_012);
const MP4 = anMp4(64_024);

beforeAll(async () => {
  origin = createServer((req, res) => {
    if (req.url === '/clip.mp4')
      return void res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': MP4.length }).end(MP4);
    if (req.url === '/share')
      return void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><html><body>Download</body></html>');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
});
afterAll(async () => {
  origin?.closeAllConnections();
  await new Promise((resolve) => (origin ? origin.close(resolve) : resolve(undefined)));
});

const call = (path: string, init: { method?: string; key?: string; body?: unknown } = {}) =>
  api(ctx.system, path, init);

async function upload(key: string | undefined, bytes?: Buffer, field = 'file') {
  const form = new FormData();
  if (bytes) form.append(field, new Blob([bytes]), 'file.bin');
  else form.append('note', 'nothing');
  const res = await fetch(`${ctx.system.baseUrl}/api/v1/media`, {
    method: 'POST',
    headers: key ? { authorization: `Bearer ${key}` } : {},
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

const principalOf = (a: SeededAccount) => ({
  accountId: a.accountId,
  userId: a.userId,
  credential: { type: 'api_key' as const, id: a.keyId },
  scopes: ['media:write'],
  profileIds: 'all' as const,
});
const sha = (b: ArrayBuffer | Buffer) =>
  createHash('sha256')
    .update(Buffer.from(b as ArrayBuffer))
    .digest('hex');

describe('media through the gateway', () => {
  test('when a file is uploaded to {base_url}/api/v1/media, then 201 and its signed URL under {base_url} serves it, ranges included', async () => {
    const a = await ctx.system.seedAccount({ platforms: [] });
    const r = await upload(a.apiKey, JPEG);
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      success: true,
      url: expect.stringMatching(new RegExp(`^${ctx.system.baseUrl}/files/med_\\w+\\?expires=\\d+&sig=`)),
      mediaId: expect.stringMatching(/^med_/),
    });

    const served = await fetch(r.body.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect(served.headers.get('content-length')).toBe(String(JPEG.length));
    expect(served.headers.get('etag')).toBe(`"${sha(JPEG)}"`);
    expect(sha(await served.arrayBuffer())).toBe(sha(JPEG));

    const part = await fetch(r.body.url, { headers: { range: 'bytes=0-2' } });
    expect(part.status).toBe(206);
    expect([...Buffer.from(await part.arrayBuffer())]).toEqual([0xff, 0xd8, 0xff]);
    const beyond = await fetch(r.body.url, { headers: { range: `bytes=${JPEG.length + 1}-` } });
    expect(beyond.status).toBe(416);
  });

  test('when the upload has no file, then 400 missing_file; without a key, 401 missing_api_key', async () => {
    const a = await ctx.system.seedAccount({ platforms: [] });
    const r = await upload(a.apiKey);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: expect.any(String), code: 'missing_file' });
    const anonymous = await upload(undefined, JPEG);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('missing_api_key');
  });

  test('when an upload through the gateway passes 50 MB, then 413 file_too_large comes back through it', async () => {
    const a = await ctx.system.seedAccount({ platforms: [], plan: 'pro' });
    const big = Buffer.concat([MP4, Buffer.alloc(MEDIA_MAX_BYTES + 1 - MP4.length, 1)]);
    const r = await upload(a.apiKey, big);
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({ code: 'file_too_large' });
    expect((await call('/api/v1/media', { key: a.apiKey })).body.count).toBe(0);
  });

  test('when a link is imported, then 201 with type and size; the same link again, 200 with the same mediaId', async () => {
    const a = await ctx.system.seedAccount({ platforms: [] });
    const first = await call('/api/v1/media/from-url', {
      method: 'POST',
      key: a.apiKey,
      body: { url: `${originUrl}/clip.mp4` },
    });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      success: true,
      mediaId: expect.stringMatching(/^med_/),
      url: expect.stringContaining(`${ctx.system.baseUrl}/files/`),
      contentType: 'video/mp4',
      sizeBytes: MP4.length,
    });
    const again = await call('/api/v1/media/from-url', {
      method: 'POST',
      key: a.apiKey,
      body: { url: `${originUrl}/clip.mp4` },
    });
    expect(again.status).toBe(200);
    expect(again.body.mediaId).toBe(first.body.mediaId);
    expect(sha(await (await fetch(again.body.url)).arrayBuffer())).toBe(sha(MP4));
  });

  test('when the link is a web page or a share page, then 400 media_url_not_direct; a bad body, 400 validation_error', async () => {
    const a = await ctx.system.seedAccount({ platforms: [] });
    const page = await call('/api/v1/media/from-url', {
      method: 'POST',
      key: a.apiKey,
      body: { url: `${originUrl}/share` },
    });
    expect(page.status).toBe(400);
    expect(page.body).toEqual({ error: expect.any(String), code: 'media_url_not_direct' });
    const dropbox = await call('/api/v1/media/from-url', {
      method: 'POST',
      key: a.apiKey,
      body: { url: 'https://www.dropbox.com/s/x1/clip.mp4?dl=0' },
    });
    expect(dropbox.status).toBe(400);
    expect(dropbox.body).toMatchObject({
      code: 'media_url_not_direct',
      details: { host: 'Dropbox', directUrl: 'https://www.dropbox.com/s/x1/clip.mp4?dl=1' },
    });
    const noUrl = await call('/api/v1/media/from-url', { method: 'POST', key: a.apiKey, body: {} });
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.code).toBe('validation_error');
  });

  test('when media is read, listed and deleted, then only its account sees it and posts then get media_not_found', async () => {
    const a = await ctx.system.seedAccount({ platforms: [] });
    const b = await ctx.system.seedAccount({ platforms: [] });
    const one = await upload(a.apiKey, JPEG);
    const two = await upload(a.apiKey, MP4);

    const got = await call(`/api/v1/media/${one.body.mediaId}`, { key: a.apiKey });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      mediaId: one.body.mediaId,
      contentType: 'image/jpeg',
      sizeBytes: JPEG.length,
      status: 'ready',
    });
    const theirs = await call(`/api/v1/media/${one.body.mediaId}`, { key: b.apiKey });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual({ error: expect.any(String), code: 'not_found' });

    const page1 = await call('/api/v1/media?limit=1', { key: a.apiKey });
    expect(page1.status).toBe(200);
    expect(page1.body).toMatchObject({
      count: 1,
      media: [{ mediaId: two.body.mediaId }],
      nextCursor: expect.any(String),
    });
    const page2 = await call(`/api/v1/media?limit=1&cursor=${page1.body.nextCursor}`, { key: a.apiKey });
    expect(page2.body).toMatchObject({ count: 1, media: [{ mediaId: one.body.mediaId }], nextCursor: null });
    expect((await call('/api/v1/media?limit=lots', { key: a.apiKey })).body.code).toBe('validation_error');
    expect((await call('/api/v1/media', { key: b.apiKey })).body).toEqual({ media: [], count: 0, nextCursor: null });

    expect((await call(`/api/v1/media/${one.body.mediaId}`, { method: 'DELETE', key: b.apiKey })).status).toBe(404);
    const deleted = await call(`/api/v1/media/${one.body.mediaId}`, { method: 'DELETE', key: a.apiKey });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ mediaId: one.body.mediaId, status: 'deleted', deletedAt: expect.any(String) });
    expect((await call(`/api/v1/media/${one.body.mediaId}`, { key: a.apiKey })).status).toBe(404);
    expect((await fetch(one.body.url)).status).toBe(404);
    await expect(
      ctx.system.bus.rpc.call(Rpc.mediaResolve, { mediaId: one.body.mediaId }, principalOf(a)),
    ).rejects.toMatchObject({ code: 'media_not_found' });
    await expect(
      ctx.system.bus.rpc.call(Rpc.mediaResolve, { mediaId: two.body.mediaId }, principalOf(a)),
    ).resolves.toMatchObject({ mediaId: two.body.mediaId });
  });

  test('when a post names a media of the account, then it is accepted; once the media is deleted, 400 media_not_found', async () => {
    const a = await ctx.system.seedAccount({ platforms: ['threads'] });
    const up = await upload(a.apiKey, JPEG);
    const later = new Date(Date.now() + 24 * 3600_000).toISOString();
    const post = { platforms: ['threads'], caption: 'with media', mediaId: up.body.mediaId, scheduledTime: later };
    const created = await call('/api/v1/posts', { method: 'POST', key: a.apiKey, body: post });
    expect(created.status).toBe(201);
    await call(`/api/v1/media/${up.body.mediaId}`, { method: 'DELETE', key: a.apiKey });
    const refused = await call('/api/v1/posts', {
      method: 'POST',
      key: a.apiKey,
      body: { ...post, caption: 'after the delete' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: expect.any(String), code: 'media_not_found' });
  });

  test('when a signed URL is altered, then 403 invalid_signature through the gateway', async () => {
    const a = await ctx.system.seedAccount({ platforms: [] });
    const r = await upload(a.apiKey, JPEG);
    const altered = new URL(r.body.url);
    const sig = altered.searchParams.get('sig')!;
    altered.searchParams.set('sig', `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`);
    const res = await fetch(altered);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: expect.any(String), code: 'invalid_signature' });
  });

  test('when an agent calls svc_upload_media and svc_add_media_from_url, then they answer as their REST twins', async () => {
    const a = await ctx.system.seedAccount({ platforms: [] });
    const call = async (name: string, args: Record<string, unknown>) => {
      const answer = await callTool(ctx.system.baseUrl, name, args, a.apiKey);
      expect(answer.status).toBe(200);
      return answer.message.result as {
        structuredContent?: Record<string, unknown>;
        isError?: boolean;
        content: { text: string }[];
      };
    };
    const uploaded = await call('svc_upload_media', { content: JPEG.toString('base64'), filename: 'photo.jpg' });
    expect(uploaded.structuredContent).toEqual({
      success: true,
      mediaId: expect.stringMatching(/^med_/),
      url: expect.stringContaining(`${ctx.system.baseUrl}/files/`),
    });
    expect(sha(await (await fetch(String(uploaded.structuredContent!.url))).arrayBuffer())).toBe(sha(JPEG));

    const imported = await call('svc_add_media_from_url', { url: `${originUrl}/clip.mp4` });
    expect(imported.structuredContent).toEqual({
      success: true,
      mediaId: expect.stringMatching(/^med_/),
      url: expect.any(String),
      contentType: 'video/mp4',
      sizeBytes: MP4.length,
    });
    const refused = await call('svc_add_media_from_url', { url: 'https://we.tl/t-abc' });
    expect(refused.isError).toBe(true);
    expect(JSON.parse(refused.content[0].text)).toMatchObject({
      code: 'media_url_not_direct',
      details: { host: 'WeTransfer' },
    });
  });

  test('when a key lacks media:write, then 403 insufficient_scope on every media route', async () => {
    const reader = await ctx.system.seedAccount({ platforms: [], scopes: ['post:read'] });
    expect((await upload(reader.apiKey, JPEG)).body.code).toBe('insufficient_scope');
    expect((await call('/api/v1/media', { key: reader.apiKey })).body.code).toBe('insufficient_scope');
    expect(
      (
        await call('/api/v1/media/from-url', {
          method: 'POST',
          key: reader.apiKey,
          body: { url: `${originUrl}/clip.mp4` },
        })
      ).status,
    ).toBe(403);
  });
});
