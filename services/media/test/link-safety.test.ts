import { AppError } from '@postbus/contracts';
import { downloadLink, linkFailure, type DownloadLimits } from '../src/link-import/download-link';
import { assertNotSharePage } from '../src/link-import/share-pages';
import { aJpeg } from './support/media-files';
import { file, startOrigin, type OriginServer } from './support/origin-server';

describe('share pages', () => {
  test.each([
    'https://www.dropbox.com/s/abc/photo.jpg?dl=1',
    'https://www.dropbox.com/scl/fi/abc/photo.jpg?rlkey=x&raw=1',
    'https://dl.dropboxusercontent.com/s/abc/photo.jpg',
    'https://drive.google.com/uc?export=download&id=1AbC',
    'https://drive.usercontent.google.com/download?id=1AbC&export=download',
    'https://contoso.sharepoint.com/:v:/g/personal/x/EAbC?download=1',
    'https://onedrive.live.com/download?cid=1&resid=2',
    'https://cdn.example.com/photo.jpg',
  ])('when the link is a direct download link (%s), then it is not refused', (url) => {
    expect(() => assertNotSharePage(new URL(url))).not.toThrow();
  });

  test.each([
    ['https://www.dropbox.com/scl/fi/abc/photo.jpg?rlkey=x&dl=0', 'Dropbox', 'dl=1'],
    ['https://drive.google.com/file/d/1AbC/view', 'Google Drive', 'export=download&id=1AbC'],
    ['https://docs.google.com/presentation/d/1AbC/edit', 'Google Drive', 'uc?export=download'],
    ['https://contoso.sharepoint.com/:v:/g/personal/x/EAbC', 'OneDrive', 'download=1'],
    ['https://onedrive.live.com/?cid=1&id=2', 'OneDrive', 'Embed'],
    ['https://wetransfer.com/downloads/abc/def', 'WeTransfer', 'POST /api/v1/media'],
    ['https://share.icloud.com/photos/0AbC', 'iCloud', 'POST /api/v1/media'],
  ])('when the link is a share page (%s), then media_url_not_direct tells how to fix it for %s', (url, host, hint) => {
    let error: AppError | undefined;
    try {
      assertNotSharePage(new URL(url));
    } catch (err) {
      error = err as AppError;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error!.code).toBe('media_url_not_direct');
    expect(error!.details).toMatchObject({ host });
    expect(error!.message).toContain(hint);
  });
});

describe('downloading a link', () => {
  let origin: OriginServer;
  const photo = aJpeg(4096);
  const hosts: string[] = [];
  const limits: DownloadLimits = {
    allowLoopback: true,
    connectTimeoutMs: 2000,
    idleTimeoutMs: 2000,
    totalTimeoutMs: 5000,
    maxRedirects: 3,
  };
  const anyUrl = () => undefined;

  beforeAll(async () => {
    origin = await startOrigin();
    origin.route('/photo.jpg', (req, res) => {
      hosts.push(String(req.headers.host));
      file(photo, 'image/jpeg')(req, res);
    });
    origin.route('/trickle', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      const timer = setInterval(() => res.write(Buffer.alloc(16)), 50);
      res.on('close', () => clearInterval(timer));
    });
  });
  afterAll(() => origin?.close());

  const port = () => new URL(origin.url).port;
  const read = async (body: NodeJS.ReadableStream) => {
    const parts: Buffer[] = [];
    for await (const part of body) parts.push(part as Buffer);
    return Buffer.concat(parts);
  };

  test('when a host name resolves, then the connection goes to the address judged, under the original Host', async () => {
    let asked = 0;
    const resolve = async () => {
      asked++;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const d = await downloadLink(
      new URL(`http://files.example.test:${port()}/photo.jpg`),
      { ...limits, resolve },
      anyUrl,
    );
    expect(d).toMatchObject({ contentType: 'image/jpeg', contentLength: photo.length });
    expect((await read(d.body)).equals(photo)).toBe(true);
    expect(asked).toBe(1);
    expect(hosts.at(-1)).toBe(`files.example.test:${port()}`);
  });

  test('when every address is refused, then validation_error naming why, before any connection', async () => {
    const before = origin.hits.get('/photo.jpg') ?? 0;
    await expect(
      downloadLink(new URL(`http://localhost:${port()}/photo.jpg`), { ...limits, allowLoopback: false }, anyUrl),
    ).rejects.toMatchObject({
      code: 'validation_error',
      message: expect.stringContaining('loopback'),
    });
    const resolve = async () => [{ address: '192.168.0.10', family: 4 }];
    await expect(
      downloadLink(new URL(`http://internal.example.test:${port()}/photo.jpg`), { ...limits, resolve }, anyUrl),
    ).rejects.toMatchObject({
      code: 'validation_error',
      message: expect.stringContaining('private'),
    });
    expect(origin.hits.get('/photo.jpg') ?? 0).toBe(before);
  });

  test('when checkUrl refuses a URL, then its own error comes back unchanged', async () => {
    await expect(
      downloadLink(new URL('https://www.dropbox.com/s/x/a.jpg'), limits, assertNotSharePage),
    ).rejects.toMatchObject({ code: 'media_url_not_direct' });
  });

  test('when the host name does not resolve or the link carries credentials, then validation_error', async () => {
    await expect(downloadLink(new URL('http://nowhere.invalid/photo.jpg'), limits, anyUrl)).rejects.toMatchObject({
      code: 'validation_error',
      message: expect.stringContaining('does not resolve'),
    });
    await expect(
      downloadLink(new URL(`http://user:secret@127.0.0.1:${port()}/photo.jpg`), limits, anyUrl),
    ).rejects.toMatchObject({ code: 'validation_error' });
  });

  test('when the whole download takes longer than its limit, then the body fails and reads as validation_error', async () => {
    const url = new URL(`${origin.url}/trickle`);
    const d = await downloadLink(url, { ...limits, totalTimeoutMs: 400 }, anyUrl);
    const err = await read(d.body).catch((e: unknown) => e);
    expect(linkFailure(err, url)).toMatchObject({
      code: 'validation_error',
      message: expect.stringContaining('did not answer within 400 ms'),
    });
  });
});
