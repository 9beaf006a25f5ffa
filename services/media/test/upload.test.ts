import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { waitFor } from '@postbus/testing';
import { MEDIA_MAX_BYTES, Rpc } from '@postbus/contracts';
import { A_PDF, aJpeg, anMp4, MB, TINY_GIF, TINY_PNG } from './support/media-files';
import { pathOf, startMediaHarness, TEST_BASE_URL, uploadTo, type MediaHarness } from './support/media-harness';

let h: MediaHarness;

beforeAll(async () => {
  // A 2 MB trial quota makes storage_quota_exceeded reachable with small files.
  h = await startMediaHarness('media_upload', { QUOTA_TRIAL_STORAGE_MB: '2' });
});
afterAll(() => h?.stop());

const sha = (b: Buffer | ArrayBuffer) =>
  createHash('sha256')
    .update(Buffer.from(b as ArrayBuffer))
    .digest('hex');

describe("POST /api/v1/media on media's own listener", () => {
  test('when a JPEG is uploaded, then 201 answers its mediaId and a signed URL that serves the same bytes', async () => {
    const account = await h.account();
    const bytes = aJpeg(300 * 1024);
    const r = await uploadTo(h.mediaUrl, account.apiKey, { bytes, name: 'photo.jpg', type: 'image/jpeg' });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ success: true, url: expect.any(String), mediaId: expect.stringMatching(/^med_/) });
    expect(r.body.url.startsWith(`${TEST_BASE_URL}/files/${r.body.mediaId}?`)).toBe(true);

    const served = await fetch(`${h.mediaUrl}${pathOf(r.body.url)}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect(sha(await served.arrayBuffer())).toBe(sha(bytes));
  });

  test('when the client claims a type the bytes do not have, then the type is read from the bytes', async () => {
    const account = await h.account();
    const r = await uploadTo(h.mediaUrl, account.apiKey, {
      bytes: TINY_PNG,
      name: 'not-really.mp4',
      type: 'video/mp4',
    });
    expect(r.status).toBe(201);
    const asset = await h.bus.rpc.call(Rpc.mediaGet, { mediaId: r.body.mediaId }, principalOf(account));
    expect(asset).toMatchObject({ contentType: 'image/png', sizeBytes: TINY_PNG.length, status: 'ready' });
  });

  test('when the gateway names its base URL in X-Forwarded-Prefix, then the URL is under it', async () => {
    const account = await h.account();
    const form = new FormData();
    form.append('file', new Blob([TINY_GIF]), 'a.gif');
    const res = await fetch(`${h.mediaUrl}/api/v1/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.apiKey}`, 'x-forwarded-prefix': 'https://api.example.com' },
      body: form,
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { url: string }).url).toMatch(/^https:\/\/api\.example\.com\/files\/med_/);
  });

  test('when the body has no file part, then 400 missing_file', async () => {
    const account = await h.account();
    const r = await uploadTo(h.mediaUrl, account.apiKey);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: expect.any(String), code: 'missing_file' });
  });

  test('when the file is in another field or the body is not multipart, then 400 missing_file', async () => {
    const account = await h.account();
    const wrongField = await uploadTo(h.mediaUrl, account.apiKey, { bytes: TINY_PNG, field: 'image' });
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.code).toBe('missing_file');
    const json = await fetch(`${h.mediaUrl}/api/v1/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' },
      body: '{"file":"x"}',
    });
    expect(json.status).toBe(400);
    expect(((await json.json()) as { code: string }).code).toBe('missing_file');
  });

  test('when the multipart body is malformed, then 400 validation_error', async () => {
    const account = await h.account();
    const noBoundary = await fetch(`${h.mediaUrl}/api/v1/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'multipart/form-data' },
      body: 'x',
    });
    expect(noBoundary.status).toBe(400);
    expect(((await noBoundary.json()) as { code: string }).code).toBe('validation_error');
    const cut = await fetch(`${h.mediaUrl}/api/v1/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'multipart/form-data; boundary=b0' },
      body: '--b0\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\npartial',
    });
    expect(cut.status).toBe(400);
    expect(((await cut.json()) as { code: string }).code).toBe('validation_error');
  });

  test('when the bytes are not an accepted image or video, then 400 unsupported_media_type and nothing is stored', async () => {
    const account = await h.account();
    const before = await h.storedObjects();
    const pdf = await uploadTo(h.mediaUrl, account.apiKey, { bytes: A_PDF, name: 'photo.jpg', type: 'image/jpeg' });
    expect(pdf.status).toBe(400);
    expect(pdf.body).toEqual({ error: expect.any(String), code: 'unsupported_media_type' });
    const text = await uploadTo(h.mediaUrl, account.apiKey, {
      bytes: Buffer.from('just some words'),
      name: 'a.png',
      type: 'image/png',
    });
    expect(text.body.code).toBe('unsupported_media_type');
    expect(await h.storedObjects()).toEqual(before);
  });

  test('when the file is over 50 MB, then 413 file_too_large and the partial object is removed', async () => {
    const account = await h.account({ plan: 'pro' });
    const before = await h.storedObjects();
    const r = await uploadTo(h.mediaUrl, account.apiKey, { bytes: anMp4(MEDIA_MAX_BYTES + 1), name: 'big.mp4' });
    expect(r.status).toBe(413);
    expect(r.body).toEqual({
      error: expect.any(String),
      code: 'file_too_large',
      details: { maxBytes: MEDIA_MAX_BYTES },
    });
    // The partial object is removed as the refused stream is torn down, which may finish just after the answer.
    await waitFor(async () => ((await h.storedObjects()).length === before.length ? true : undefined), {
      what: 'the partial object to be removed',
    });
    expect(await h.storedObjects()).toEqual(before);
    const listed = await h.bus.rpc.call(Rpc.mediaList, {}, principalOf(account));
    expect(listed.count).toBe(0);
  });

  test('when the client hangs up in the middle of an upload, then the partial object is removed', async () => {
    const account = await h.account({ plan: 'pro' });
    const before = await h.storedObjects();
    const boundary = 'hangup-boundary';
    const req = request(`${h.mediaUrl}/api/v1/media`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${account.apiKey}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': 20 * MB,
      },
    });
    req.on('error', () => undefined);
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="clip.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
    );
    req.write(anMp4(2 * MB));
    await waitFor(async () => ((await h.storedObjects()).length > before.length ? true : undefined), {
      what: 'the upload to reach storage',
    });
    req.destroy();
    await waitFor(async () => ((await h.storedObjects()).length === before.length ? true : undefined), {
      what: 'the partial object to be removed',
    });
    expect(await h.storedObjects()).toEqual(before);
  });

  test('when the file is exactly 50 MB, then it is accepted', async () => {
    const account = await h.account({ plan: 'pro' });
    const r = await uploadTo(h.mediaUrl, account.apiKey, { bytes: anMp4(MEDIA_MAX_BYTES), name: 'limit.mp4' });
    expect(r.status).toBe(201);
    const asset = await h.bus.rpc.call(Rpc.mediaGet, { mediaId: r.body.mediaId }, principalOf(account));
    expect(asset).toMatchObject({ contentType: 'video/mp4', sizeBytes: MEDIA_MAX_BYTES });
  });

  test("when the account's plan has expired, then 403 upload_plan_required; trial and paid plans upload", async () => {
    const expired = await h.account({ plan: 'expired', tester: true });
    const refused = await uploadTo(h.mediaUrl, expired.apiKey, { bytes: TINY_PNG });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: expect.any(String), code: 'upload_plan_required' });
    for (const plan of ['trial', 'pro']) {
      const ok = await uploadTo(h.mediaUrl, (await h.account({ plan })).apiKey, { bytes: TINY_PNG });
      expect(ok.status).toBe(201);
    }
  });

  test('when a file does not fit in the storage left, then 403 storage_quota_exceeded and the library keeps what fit', async () => {
    const account = await h.account();
    const first = await uploadTo(h.mediaUrl, account.apiKey, { bytes: aJpeg(1.5 * MB) });
    expect(first.status).toBe(201);
    const before = await h.storedObjects();
    const second = await uploadTo(h.mediaUrl, account.apiKey, { bytes: aJpeg(0.75 * MB) });
    expect(second.status).toBe(403);
    expect(second.body).toMatchObject({ code: 'storage_quota_exceeded' });
    expect(await h.storedObjects()).toEqual(before);
    const small = await uploadTo(h.mediaUrl, account.apiKey, { bytes: aJpeg(100 * 1024) });
    expect(small.status).toBe(201);
  });

  test('when media is deleted, then its bytes no longer count against the storage quota', async () => {
    const account = await h.account();
    const first = await uploadTo(h.mediaUrl, account.apiKey, { bytes: aJpeg(1.5 * MB) });
    expect(first.status).toBe(201);
    expect((await uploadTo(h.mediaUrl, account.apiKey, { bytes: aJpeg(1.5 * MB) })).status).toBe(403);
    await h.bus.rpc.call(Rpc.mediaDelete, { mediaId: first.body.mediaId }, principalOf(account));
    expect((await uploadTo(h.mediaUrl, account.apiKey, { bytes: aJpeg(1.5 * MB) })).status).toBe(201);
  });

  test('when no key or a key without media:write is sent, then 401 missing_api_key or 403 insufficient_scope', async () => {
    const none = await uploadTo(h.mediaUrl, undefined, { bytes: TINY_PNG });
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('missing_api_key');
    const reader = await h.account({ scopes: ['post:read'] });
    const scoped = await uploadTo(h.mediaUrl, reader.apiKey, { bytes: TINY_PNG });
    expect(scoped.status).toBe(403);
    expect(scoped.body.code).toBe('insufficient_scope');
  });
});

function principalOf(account: { accountId: string; userId: string; keyId: string }) {
  return {
    accountId: account.accountId,
    userId: account.userId,
    credential: { type: 'api_key' as const, id: account.keyId },
    scopes: ['media:write'],
    profileIds: 'all' as const,
  };
}
