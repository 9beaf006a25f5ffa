import { MEDIA_MAX_BYTES, Rpc, type Principal } from '@postbus/contracts';
import { A_PDF, A_WEB_PAGE, aJpeg, anMp4, MB } from './support/media-files';
import { pathOf, startMediaHarness, type MediaHarness } from './support/media-harness';
import { file, redirect, startOrigin, stream, type OriginServer } from './support/origin-server';

let h: MediaHarness;
let origin: OriginServer;
const photo = aJpeg(200 * 1024);

beforeAll(async () => {
  h = await startMediaHarness('media_link_import', { MEDIA_IMPORT_IDLE_TIMEOUT_MS: '500' });
  origin = await startOrigin();
  origin.route('/photo.jpg', file(photo, 'image/jpeg'));
  origin.route('/same-photo-elsewhere.jpg', file(photo, 'image/jpeg'));
  origin.route('/clip.mp4', file(anMp4(300 * 1024), 'video/mp4'));
  origin.route('/page', file(A_WEB_PAGE, 'text/html; charset=utf-8'));
  origin.route('/disguised-page', file(A_WEB_PAGE, 'application/octet-stream'));
  origin.route('/document.pdf', file(A_PDF, 'application/pdf'));
  for (let i = 1; i <= 4; i++) origin.route(`/hop${i}`, redirect(i === 1 ? '/clip.mp4' : `/hop${i - 1}`));
  origin.route('/to-metadata', redirect('http://169.254.169.254/latest/meta-data/'));
  origin.route('/to-private', redirect('http://10.20.30.40/file.jpg'));
  origin.route('/to-dropbox', redirect('https://www.dropbox.com/s/abc123/photo.jpg?dl=0'));
  origin.route('/declared-huge', (_req, res) => {
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': MEDIA_MAX_BYTES + 1 });
    res.write(anMp4(1024));
  });
  origin.route('/streamed-huge', stream(anMp4(1024), MEDIA_MAX_BYTES + 64 * 1024));
  origin.route('/stalls', (_req, res) => {
    res.writeHead(200, { 'content-type': 'image/jpeg' });
    res.write(aJpeg(8 * 1024));
  });
});
afterAll(async () => {
  await origin?.close();
  await h?.stop();
});

async function anAccount(plan?: string) {
  const account = await h.account(plan ? { plan } : {});
  const principal: Principal = {
    accountId: account.accountId,
    userId: account.userId,
    credential: { type: 'api_key', id: account.keyId },
    scopes: ['media:write'],
    profileIds: 'all',
  };
  return principal;
}
const importLink = (principal: Principal, url: string) =>
  h.bus.rpc.call(Rpc.mediaImportFromUrl, { url }, principal, { timeoutMs: 30_000 });

describe('importing a direct link', () => {
  test('when a direct image link is imported, then it answers mediaId, url, the detected type and the size, and serves the bytes', async () => {
    const p = await anAccount();
    const r = await importLink(p, `${origin.url}/photo.jpg`);
    expect(r).toEqual({
      success: true,
      mediaId: expect.stringMatching(/^med_/),
      url: expect.any(String),
      contentType: 'image/jpeg',
      sizeBytes: photo.length,
      deduplicated: false,
    });
    const served = await fetch(`${h.mediaUrl}${pathOf(r.url)}`);
    expect(Buffer.from(await served.arrayBuffer()).equals(photo)).toBe(true);
  });

  test('when the same account sends the same link again, then the same mediaId comes back and nothing is downloaded or stored', async () => {
    const p = await anAccount();
    const first = await importLink(p, `${origin.url}/photo.jpg#first`);
    const hits = origin.hits.get('/photo.jpg');
    const objects = await h.storedObjects();
    const second = await importLink(p, `${origin.url}/photo.jpg`);
    expect(second).toMatchObject({
      mediaId: first.mediaId,
      deduplicated: true,
      contentType: 'image/jpeg',
      sizeBytes: photo.length,
    });
    expect(origin.hits.get('/photo.jpg')).toBe(hits);
    expect(await h.storedObjects()).toEqual(objects);
    expect((await h.bus.rpc.call(Rpc.mediaList, {}, p)).count).toBe(1);
  });

  test('when another account imports the same link, then it gets its own media over the stored bytes', async () => {
    const a = await anAccount();
    const b = await anAccount();
    const mine = await importLink(a, `${origin.url}/photo.jpg`);
    const objects = await h.storedObjects();
    const theirs = await importLink(b, `${origin.url}/photo.jpg`);
    expect(theirs.mediaId).not.toBe(mine.mediaId);
    expect(theirs.deduplicated).toBe(false);
    expect(await h.storedObjects()).toEqual(objects);
  });

  test('when identical bytes come from another link, then a new media shares the stored object', async () => {
    const p = await anAccount();
    await importLink(p, `${origin.url}/photo.jpg`);
    const objects = await h.storedObjects();
    const other = await importLink(p, `${origin.url}/same-photo-elsewhere.jpg`);
    expect(other.deduplicated).toBe(false);
    expect(await h.storedObjects()).toEqual(objects);
    expect((await h.bus.rpc.call(Rpc.mediaList, {}, p)).count).toBe(2);
  });

  test('when the link redirects up to 3 times, then the file at the end is imported', async () => {
    const p = await anAccount();
    const r = await importLink(p, `${origin.url}/hop3`);
    expect(r).toMatchObject({ contentType: 'video/mp4', sizeBytes: 300 * 1024 });
  });

  test('when the link redirects a 4th time, then validation_error', async () => {
    const p = await anAccount();
    await expect(importLink(p, `${origin.url}/hop4`)).rejects.toMatchObject({
      code: 'validation_error',
      message: expect.stringContaining('redirects'),
    });
  });
});

describe('refusing what is not a direct public file', () => {
  test('when the link answers a web page, then media_url_not_direct with instructions', async () => {
    const p = await anAccount();
    await expect(importLink(p, `${origin.url}/page`)).rejects.toMatchObject({
      code: 'media_url_not_direct',
      message: expect.stringContaining('web page'),
    });
    await expect(importLink(p, `${origin.url}/disguised-page`)).rejects.toMatchObject({ code: 'media_url_not_direct' });
  });

  test('when the link is a Dropbox, Google Drive, OneDrive, WeTransfer or iCloud share page, then media_url_not_direct naming the host', async () => {
    const p = await anAccount();
    await expect(importLink(p, 'https://www.dropbox.com/s/abc123/photo.jpg?dl=0')).rejects.toMatchObject({
      code: 'media_url_not_direct',
      details: { host: 'Dropbox', directUrl: 'https://www.dropbox.com/s/abc123/photo.jpg?dl=1' },
    });
    await expect(importLink(p, 'https://drive.google.com/file/d/1AbC_dEf/view?usp=sharing')).rejects.toMatchObject({
      code: 'media_url_not_direct',
      details: { host: 'Google Drive', directUrl: 'https://drive.google.com/uc?export=download&id=1AbC_dEf' },
    });
    await expect(importLink(p, 'https://1drv.ms/v/s!AbCdEf')).rejects.toMatchObject({
      code: 'media_url_not_direct',
      details: { host: 'OneDrive' },
    });
    await expect(importLink(p, 'https://we.tl/t-AbCdEf')).rejects.toMatchObject({
      code: 'media_url_not_direct',
      details: { host: 'WeTransfer' },
    });
    await expect(importLink(p, 'https://www.icloud.com/iclouddrive/0AbC#photo')).rejects.toMatchObject({
      code: 'media_url_not_direct',
      details: { host: 'iCloud' },
    });
  });

  test('when a link redirects to a share page, then media_url_not_direct for that host', async () => {
    const p = await anAccount();
    await expect(importLink(p, `${origin.url}/to-dropbox`)).rejects.toMatchObject({
      code: 'media_url_not_direct',
      details: { host: 'Dropbox' },
    });
  });

  test('when a redirect leads to a metadata or private address, then validation_error and nothing is fetched there', async () => {
    const p = await anAccount();
    await expect(importLink(p, `${origin.url}/to-metadata`)).rejects.toMatchObject({
      code: 'validation_error',
      message: expect.stringContaining('metadata'),
    });
    await expect(importLink(p, `${origin.url}/to-private`)).rejects.toMatchObject({
      code: 'validation_error',
      message: expect.stringContaining('private'),
    });
    await expect(importLink(p, 'http://[fd00:ec2::254]/latest/meta-data/')).rejects.toMatchObject({
      code: 'validation_error',
    });
  });

  test('when the link is not http(s) or not a URL, then validation_error', async () => {
    const p = await anAccount();
    await expect(importLink(p, 'ftp://example.com/photo.jpg')).rejects.toMatchObject({ code: 'validation_error' });
    await expect(importLink(p, 'file:///etc/passwd')).rejects.toMatchObject({ code: 'validation_error' });
    await expect(importLink(p, 'not a link')).rejects.toMatchObject({ code: 'validation_error' });
  });

  test('when the file is not an accepted image or video, then unsupported_media_type', async () => {
    const p = await anAccount();
    await expect(importLink(p, `${origin.url}/document.pdf`)).rejects.toMatchObject({ code: 'unsupported_media_type' });
  });

  test('when the link answers an error status, then validation_error naming it', async () => {
    const p = await anAccount();
    await expect(importLink(p, `${origin.url}/nothing-here.jpg`)).rejects.toMatchObject({
      code: 'validation_error',
      message: expect.stringContaining('HTTP 404'),
    });
  });
});

describe('limits', () => {
  test('when the declared size is over 50 MB, then file_too_large without reading the body', async () => {
    const p = await anAccount('pro');
    await expect(importLink(p, `${origin.url}/declared-huge`)).rejects.toMatchObject({ code: 'file_too_large' });
  });

  test('when a stream without a declared size passes 50 MB, then file_too_large and the partial object is removed', async () => {
    const p = await anAccount('pro');
    const before = await h.storedObjects();
    await expect(importLink(p, `${origin.url}/streamed-huge`)).rejects.toMatchObject({ code: 'file_too_large' });
    expect(await h.storedObjects()).toEqual(before);
  });

  test('when the server stops sending, then the import ends with validation_error and nothing is kept', async () => {
    const p = await anAccount();
    const before = await h.storedObjects();
    await expect(importLink(p, `${origin.url}/stalls`)).rejects.toMatchObject({
      code: 'validation_error',
      message: expect.stringContaining('stopped answering'),
    });
    expect(await h.storedObjects()).toEqual(before);
  });

  test('when the plan has expired, then upload_plan_required', async () => {
    const expired = await h.account({ plan: 'expired', tester: true });
    const p: Principal = {
      accountId: expired.accountId,
      userId: expired.userId,
      credential: { type: 'api_key', id: expired.keyId },
      scopes: ['media:write'],
      profileIds: 'all',
    };
    await expect(importLink(p, `${origin.url}/photo.jpg`)).rejects.toMatchObject({ code: 'upload_plan_required' });
  });

  test('when a 50 MB file is imported, then it is stored whole', async () => {
    const p = await anAccount('pro');
    origin.route('/exactly-50.mp4', stream(anMp4(1024), MEDIA_MAX_BYTES));
    const r = await importLink(p, `${origin.url}/exactly-50.mp4`);
    expect(r).toMatchObject({ contentType: 'video/mp4', sizeBytes: 50 * MB });
  });
});
