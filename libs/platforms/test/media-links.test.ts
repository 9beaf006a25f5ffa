import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PLATFORM_MEDIA_MAX } from '@postbus/contracts';
import type { Resolver } from '@postbus/net';
import {
  detectMediaKind,
  detectMediaKinds,
  INSTAGRAM_CAROUSEL_MAX,
  MediaReader,
  ownFileLinks,
  probeMedia,
  THREADS_CAROUSEL_MAX,
  TIKTOK_PHOTO_MAX,
  type MediaAccess,
} from '../src';

/**
 * The publisher reads links a post's author named: every read goes through @postbus/net, so a
 * link cannot make it connect inside the network, and a refusal says so without naming where.
 */

let server: Server;
let port: number;
let base: string;
/** Requests the media host received, as `METHOD path`. */
const hits: string[] = [];
let inFlight = 0;
let mostInFlight = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.push(`${req.method} ${path}`);
    if (path === '/to-private') return void res.writeHead(302, { location: 'http://10.0.0.1/inside' }).end();
    if (path === '/to-metadata')
      return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    if (path === '/photo') {
      // held a moment, so requests sent together overlap
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      return void setTimeout(() => {
        inFlight--;
        res
          .writeHead(200, { 'content-type': 'image/jpeg', 'content-length': 10 })
          .end(req.method === 'HEAD' ? undefined : Buffer.alloc(10));
      }, 100);
    }
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': 1000 });
    res.end(req.method === 'HEAD' ? undefined : Buffer.alloc(1000, 7));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** The host of these tests stands for a public one. */
const local: MediaAccess = { allowLoopback: true };
const strict: MediaAccess = { allowLoopback: false };
const refused = {
  transient: false,
  code: 'media_url_refused',
  message: expect.stringContaining('points at an address Postbus does not fetch from'),
};

/** Every way the publisher reads a link: its size, its bytes, its kind. */
async function expectEveryReadRefused(url: string, access: MediaAccess, secrets: string[] = []) {
  const before = hits.length;
  for (const read of [
    () => probeMedia(url, { platform: 'youtube', access }),
    () => MediaReader.open(url, 0, { platform: 'tiktok', access }),
    () => detectMediaKind(url, { platform: 'threads', access }),
  ]) {
    const err = await read().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err).toMatchObject(refused);
    for (const secret of secrets) expect(err!.message).not.toContain(secret);
  }
  expect(hits.slice(before)).toEqual([]);
}

describe('links that are not read at all', () => {
  test.each([
    ['a file: link', 'file:///etc/passwd'],
    ['a gopher: link', 'gopher://127.0.0.1:6379/_INFO'],
    ['credentials in the link', 'http://admin:secret@127.0.0.1:1/v'],
    ['not a link at all', 'not a url'],
  ])(
    'when the media link is %s, then every read is refused as media_url_refused and nothing is requested',
    async (_what, url) => {
      await expectEveryReadRefused(url.replace(':1/', `:${port}/`), local, ['secret', 'admin']);
    },
  );
});

describe('links that point inside the network', () => {
  test('when a link points at loopback and loopback is not allowed, then it is refused before any connection, naming neither address nor port', async () => {
    await expectEveryReadRefused(`${base}/internal/admin`, strict, ['127.0.0.1', String(port)]);
    await expectEveryReadRefused(`http://[::1]:${port}/internal/admin`, strict, ['::1', String(port)]);
    await expectEveryReadRefused(`http://localhost:${port}/internal/admin`, strict, ['localhost', String(port)]);
  });

  test.each([
    ['a private address', 'http://10.0.0.5/clip'],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data/iam'],
    ['a link-local IPv6 address', 'http://[fe80::1]/clip'],
    ['an IPv4 address written as IPv6', 'http://[::ffff:10.0.0.5]/clip'],
  ])('when a link names %s, then it is refused even with loopback allowed', async (_what, url) => {
    await expectEveryReadRefused(url, local, [new URL(url).hostname.replace(/[[\]]/g, '')]);
  });

  test('when a host name resolves inside the network (a cluster service name), then it is refused, naming neither name nor address', async () => {
    const resolve: Resolver = async () => [{ address: '10.96.0.12', family: 4 }];
    await expectEveryReadRefused('http://media.postbus.svc.cluster.local:3002/files/x', { ...local, resolve }, [
      'cluster.local',
      '10.96.0.12',
      '3002',
    ]);
  });

  test('when an allowed link redirects inside the network, then the redirect is judged again and refused', async () => {
    for (const path of ['/to-private', '/to-metadata']) {
      const before = hits.length;
      await expect(probeMedia(`${base}${path}`, { platform: 'youtube', access: local })).rejects.toMatchObject(refused);
      await expect(MediaReader.open(`${base}${path}`, 0, { platform: 'youtube', access: local })).rejects.toMatchObject(
        refused,
      );
      expect(hits.slice(before)).toEqual([`HEAD ${path}`, `GET ${path}`]);
    }
  });
});

describe('our own signed file links', () => {
  test('when the link is a signed file link of our own base URL, then it is read wherever that resolves; any other path there is not', async () => {
    const access: MediaAccess = { allowLoopback: false, trusted: ownFileLinks([base]) };
    expect(await probeMedia(`${base}/files/med_1?expires=1&sig=abc`, { platform: 'youtube', access })).toEqual({
      size: 1000,
      contentType: 'video/mp4',
    });
    await expectEveryReadRefused(`${base}/internal/admin`, access);
    await expectEveryReadRefused(`${base}/files/med_1/more`, access);
    await expectEveryReadRefused(`${base}/files/`, access);
  });

  test('when our base URL has a path, then only links under it are ours', () => {
    const ours = ownFileLinks(['https://example.com/postbus/', '']);
    expect(ours(new URL('https://example.com/postbus/files/med_1?sig=x'))).toBe(true);
    expect(ours(new URL('https://example.com/files/med_1'))).toBe(false);
    expect(ours(new URL('http://example.com/postbus/files/med_1'))).toBe(false);
    expect(ours(new URL('https://example.com:8443/postbus/files/med_1'))).toBe(false);
    expect(ours(new URL('https://example.com/postbus/files/a/../../admin'))).toBe(false);
  });
});

describe('detecting the kind of many links', () => {
  test('when a post has many links without an extension, then at most 4 HEAD requests are in flight at once', async () => {
    mostInFlight = 0;
    const before = hits.length;
    const urls = Array.from({ length: 10 }, (_, i) => `${base}/photo?i=${i}`);
    expect(await detectMediaKinds(urls, { platform: 'instagram', access: local })).toEqual(urls.map(() => 'image'));
    expect(hits.slice(before)).toEqual(urls.map(() => 'HEAD /photo'));
    expect(mostInFlight).toBeGreaterThan(0);
    expect(mostInFlight).toBeLessThanOrEqual(4);
  });

  test('when one of the links is refused, then the detection fails with the refusal rather than guessing', async () => {
    await expect(
      detectMediaKinds([`${base}/photo`, 'http://10.0.0.1/photo'], { platform: 'facebook', access: local }),
    ).rejects.toMatchObject(refused);
  });

  test('when a link names its kind by its extension, then no request is sent for it', async () => {
    const before = hits.length;
    expect(await detectMediaKinds([`${base}/a.jpg`, `${base}/b.mp4`], { platform: 'threads', access: local })).toEqual([
      'image',
      'video',
    ]);
    expect(hits.length).toBe(before);
  });
});

describe('item caps', () => {
  test('when posts refuses a post for its number of media items, then it uses the caps the platform clients hold', () => {
    expect(PLATFORM_MEDIA_MAX).toMatchObject({
      instagram: INSTAGRAM_CAROUSEL_MAX,
      threads: THREADS_CAROUSEL_MAX,
      tiktok: TIKTOK_PHOTO_MAX,
      youtube: 1,
    });
  });
});
