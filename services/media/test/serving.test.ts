import { Rpc } from '@postbus/contracts';
import { aJpeg, anMp4, TINY_PNG } from './support/media-files';
import { pathOf, signedPath, startMediaHarness, uploadTo, type MediaHarness } from './support/media-harness';
import { servedFileHeaders } from '../src/serving/file-headers';

let h: MediaHarness;
let bytes: Buffer;
let url: string;
let mediaId: string;

beforeAll(async () => {
  h = await startMediaHarness('media_serving');
  const account = await h.account();
  bytes = anMp4(256 * 1024);
  const r = await uploadTo(h.mediaUrl, account.apiKey, { bytes, name: 'clip.mp4' });
  ({ url, mediaId } = r.body);
});
afterAll(() => h?.stop());

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  fetch(`${h.mediaUrl}${path}`, { method, headers });
const body = async (res: Response) => Buffer.from(await res.arrayBuffer());

describe('signed serve URLs', () => {
  test('when the URL is fetched, then the bytes come with Content-Type, Content-Length, ETag and Accept-Ranges', async () => {
    const res = await get(pathOf(url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect((await body(res)).equals(bytes)).toBe(true);
  });

  test('when a byte range is asked, then 206 with exactly those bytes and Content-Range', async () => {
    const res = await get(pathOf(url), { range: 'bytes=100-1123' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 100-1123/${bytes.length}`);
    expect(res.headers.get('content-length')).toBe('1024');
    expect((await body(res)).equals(bytes.subarray(100, 1124))).toBe(true);

    const suffix = await get(pathOf(url), { range: 'bytes=-10' });
    expect(suffix.status).toBe(206);
    expect((await body(suffix)).equals(bytes.subarray(bytes.length - 10))).toBe(true);

    const open = await get(pathOf(url), { range: `bytes=${bytes.length - 5}-` });
    expect((await body(open)).equals(bytes.subarray(bytes.length - 5))).toBe(true);
  });

  test('when the range starts past the end, then 416 with the size in Content-Range', async () => {
    const res = await get(pathOf(url), { range: `bytes=${bytes.length}-${bytes.length + 10}` });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
  });

  test('when If-Range names another version, then the whole file is sent', async () => {
    const res = await get(pathOf(url), { range: 'bytes=0-9', 'if-range': '"something-else"' });
    expect(res.status).toBe(200);
    expect((await body(res)).length).toBe(bytes.length);
  });

  test('when the ETag is sent back, then 304; HEAD answers headers only', async () => {
    const first = await get(pathOf(url));
    await first.arrayBuffer();
    const again = await get(pathOf(url), { 'if-none-match': first.headers.get('etag')! });
    expect(again.status).toBe(304);
    const head = await get(pathOf(url), {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.length));
    expect((await body(head)).length).toBe(0);
  });

  test('when the signature is altered, then 403 invalid_signature', async () => {
    const u = new URL(url);
    const sig = u.searchParams.get('sig')!;
    u.searchParams.set('sig', `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`);
    const res = await get(pathOf(u.href));
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: expect.any(String), code: 'invalid_signature' });
  });

  test('when the expiry is pushed back or the URL is reused for another media, then 403 invalid_signature', async () => {
    const u = new URL(url);
    u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600));
    expect((await get(pathOf(u.href))).status).toBe(403);
    const other = await uploadTo(h.mediaUrl, (await h.account()).apiKey, { bytes: TINY_PNG });
    const swapped = pathOf(url).replace(mediaId, other.body.mediaId);
    const res = await get(swapped);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('invalid_signature');
  });

  test('when a correctly signed URL has expired, then 403 invalid_signature', async () => {
    const res = await get(signedPath(mediaId, Math.floor(Date.now() / 1000) - 1));
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('invalid_signature');
    expect((await get(signedPath(mediaId, Math.floor(Date.now() / 1000) + 60))).status).toBe(200);
  });

  test('when the signature is missing or signed with another secret, then 403 invalid_signature', async () => {
    expect((await get(`/files/${mediaId}`)).status).toBe(403);
    expect((await get(signedPath(mediaId, Math.floor(Date.now() / 1000) + 60, 'another-secret'))).status).toBe(403);
  });

  test('when the media was deleted, then its URL answers 404 not_found', async () => {
    const account = await h.account();
    const r = await uploadTo(h.mediaUrl, account.apiKey, { bytes: aJpeg(4096) });
    const principal = {
      accountId: account.accountId,
      userId: account.userId,
      credential: { type: 'api_key' as const, id: account.keyId },
      scopes: ['media:write'],
      profileIds: 'all' as const,
    };
    await h.bus.rpc.call(Rpc.mediaDelete, { mediaId: r.body.mediaId }, principal);
    const res = await get(pathOf(r.body.url));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: expect.any(String), code: 'not_found' });
  });
});

describe('URL lifetime', () => {
  test('when a URL is signed, then it expires MEDIA_URL_TTL_SECONDS later', async () => {
    const expires = Number(new URL(url).searchParams.get('expires'));
    const ttl = expires - Math.floor(Date.now() / 1000);
    expect(ttl).toBeGreaterThan(7 * 24 * 3600 - 600);
    expect(ttl).toBeLessThanOrEqual(7 * 24 * 3600);
  });
});

describe('a served file is a file, never a page', () => {
  const SANDBOX = "sandbox; default-src 'none'";

  test('when a video is fetched, then it is inline as <mediaId>.mp4, nosniff, under a sandboxing CSP; HEAD and 304 say the same', async () => {
    const res = await get(pathOf(url));
    await res.arrayBuffer();
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="${mediaId}.mp4"`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe(SANDBOX);

    const head = await get(pathOf(url), {}, 'HEAD');
    const again = await get(pathOf(url), { 'if-none-match': res.headers.get('etag')! });
    for (const r of [head, again]) {
      expect(r.headers.get('content-disposition')).toBe(`inline; filename="${mediaId}.mp4"`);
      expect(r.headers.get('content-security-policy')).toBe(SANDBOX);
    }
  });

  test('when an image is fetched, then it is named by its own type', async () => {
    const png = await uploadTo(h.mediaUrl, (await h.account()).apiKey, { bytes: TINY_PNG, name: 'page.html' });
    const res = await get(pathOf(png.body.url));
    await res.arrayBuffer();
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="${png.body.mediaId}.png"`);
    expect(res.headers.get('content-security-policy')).toBe(SANDBOX);
  });

  test('when a type is neither image nor video, then it would be served as a download', () => {
    expect(servedFileHeaders('med_1', 'application/pdf')).toEqual({
      'Content-Disposition': 'attachment; filename="med_1"',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': SANDBOX,
    });
    expect(servedFileHeaders('med_"x', 'image/gif')['Content-Disposition']).toBe('inline; filename="med__x.gif"');
  });
});
