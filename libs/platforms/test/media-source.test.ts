import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MediaReader, PlatformError, probeMedia, putTikTokChunk, putYouTubeChunk, uploadFacebookReel } from '../src';

let server: Server;
let base: string;
/** The media host of these tests listens on 127.0.0.1. */
const local = { allowLoopback: true };
const bytes = Buffer.from(Array.from({ length: 10_000 }, (_, i) => i % 251));

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const honoursRange = url.pathname !== '/no-range';
    if (url.pathname === '/missing') return void res.writeHead(404).end();
    if (url.pathname === '/slow' || url.pathname === '/stalls') {
      // ten pieces of 1,000 bytes, 100 ms apart; /stalls sends three and then nothing
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': bytes.length });
      let piece = 0;
      const timer = setInterval(() => {
        if (url.pathname === '/stalls' && piece === 3) return clearInterval(timer);
        res.write(bytes.subarray(piece * 1000, ++piece * 1000));
        if (piece === 10) {
          clearInterval(timer);
          res.end();
        }
      }, 100);
      return void res.on('close', () => clearInterval(timer));
    }
    if (url.pathname.startsWith('/upload/')) {
      // reads the whole body, then answers at once (…/answer) or never (…/held)
      req.resume();
      return void req.on(
        'end',
        () =>
          url.pathname.endsWith('/answer') &&
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"vid_1"}'),
      );
    }
    const range = /bytes=(\d+)-(\d*)/.exec(req.headers.range ?? '');
    if (range && honoursRange) {
      const start = Number(range[1]);
      const end = range[2] ? Number(range[2]) : bytes.length - 1;
      res.writeHead(206, {
        'content-type': 'video/mp4',
        'content-range': `bytes ${start}-${end}/${bytes.length}`,
        'content-length': end - start + 1,
      });
      return void res.end(req.method === 'HEAD' ? undefined : bytes.subarray(start, end + 1));
    }
    res.writeHead(200, {
      'content-type': 'video/mp4; codecs=avc1',
      ...(url.pathname !== '/no-length' && { 'content-length': bytes.length }),
    });
    if (req.method === 'HEAD') return void res.end();
    // in small pieces, so chunk boundaries fall inside them
    for (let i = 0; i < bytes.length; i += 777) res.write(bytes.subarray(i, i + 777));
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

async function read(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of stream as unknown as AsyncIterable<Uint8Array>) parts.push(part);
  return Buffer.concat(parts);
}

describe('reading media for upload', () => {
  test('when the media answers HEAD with a length, then size and type come from it', async () => {
    expect(await probeMedia(`${base}/v`, { platform: 'tiktok', access: local })).toEqual({
      size: 10_000,
      contentType: 'video/mp4',
    });
  });

  test('when HEAD has no length, then a one-byte Range request tells the size', async () => {
    expect((await probeMedia(`${base}/no-length`, { platform: 'tiktok', access: local })).size).toBe(10_000);
  });

  test('when the media is missing, then the error is permanent and names the host only', async () => {
    await expect(
      probeMedia(`${base}/missing?sig=secret`, { platform: 'youtube', access: local }),
    ).rejects.toMatchObject({ transient: false, message: expect.not.stringContaining('secret') });
  });

  test('when the bytes are read in chunks, then each chunk has exactly its length and together they are the file', async () => {
    const reader = await MediaReader.open(`${base}/v`, 0, { platform: 'tiktok', access: local });
    const chunks = [await read(reader.chunk(4096)), await read(reader.chunk(4096)), await read(reader.chunk(1808))];
    await reader.close();
    expect(chunks.map((c) => c.length)).toEqual([4096, 4096, 1808]);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
  });

  test('when reading resumes at an offset, then a Range request starts there', async () => {
    const reader = await MediaReader.open(`${base}/v`, 6000, { platform: 'youtube', access: local });
    const rest = await read(reader.chunk(4000));
    await reader.close();
    expect(rest.equals(bytes.subarray(6000))).toBe(true);
  });

  test('when the server ignores Range, then the reader skips to the offset itself', async () => {
    const reader = await MediaReader.open(`${base}/no-range`, 2500, { platform: 'youtube', access: local });
    const rest = await read(reader.chunk(7500));
    await reader.close();
    expect(rest.equals(bytes.subarray(2500))).toBe(true);
  });

  test('when the media streams slowly but steadily, then reading takes as long as it takes (the deadline is for each wait, not the whole file)', async () => {
    const reader = await MediaReader.open(`${base}/slow`, 0, { platform: 'youtube', access: local, timeoutMs: 400 });
    const all = await read(reader.chunk(10_000));
    await reader.close();
    expect(all.equals(bytes)).toBe(true);
  });

  test('when the media stops sending mid-way, then the read fails as transient once no byte came for the deadline', async () => {
    const reader = await MediaReader.open(`${base}/stalls`, 0, { platform: 'tiktok', access: local, timeoutMs: 400 });
    await expect(read(reader.chunk(10_000))).rejects.toMatchObject({ transient: true, code: 'media_stalled' });
    await reader.close();
  });

  test('when the media ends before the chunk does, then the stream fails with a transient short read', async () => {
    const reader = await MediaReader.open(`${base}/v`, 9000, { platform: 'tiktok', access: local });
    await expect(read(reader.chunk(2000))).rejects.toMatchObject({ transient: true, code: 'media_short_read' });
    await reader.close();
  });
});

describe('uploading a streamed body', () => {
  /** Bytes handed over piece by piece, `gapMs` apart. */
  const slowBody = (pieces: number, gapMs: number) => {
    let sent = 0;
    return new ReadableStream<Uint8Array>({
      async pull(out) {
        if (sent > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
        if (sent++ === pieces) return out.close();
        out.enqueue(new Uint8Array(100));
      },
    });
  };
  const chunk = (path: string, body: ReadableStream<Uint8Array>) => ({
    sessionUrl: `${base}${path}`,
    first: 0,
    last: 299,
    total: 300,
    contentType: 'video/mp4',
    body,
    timeoutMs: 60_000,
    answerTimeoutMs: 150,
  });

  test('when the platform holds its answer after the last byte, then the upload fails as a transient timeout long before its own deadline (the retry asks the session how far it got)', async () => {
    await expect(
      putYouTubeChunk({ uploadBaseUrl: base, accessToken: 't' }, chunk('/upload/held', slowBody(3, 0))),
    ).rejects.toMatchObject({ transient: true, code: 'timeout' });
  });

  /** 100 bytes, then the media's own failure, as a MediaReader's chunk fails when its source breaks off. */
  const brokenSource = () => {
    let sent = false;
    return new ReadableStream<Uint8Array>({
      pull(out) {
        if (sent)
          return out.error(
            new PlatformError('The media could not be read: the connection to media.example failed.', {
              platform: 'youtube',
              transient: true,
              code: 'media_unreachable',
            }),
          );
        sent = true;
        out.enqueue(new Uint8Array(100));
      },
    });
  };
  const brokenRead = {
    transient: true,
    code: 'media_unreachable',
    message: expect.stringMatching(/^The media could not be read/),
  };

  test("when the media breaks off while a chunk is sent, then the upload fails with the media's reason, not as a failed call to the platform", async () => {
    await expect(
      putYouTubeChunk({ uploadBaseUrl: base, accessToken: 't' }, chunk('/upload/answer', brokenSource())),
    ).rejects.toMatchObject(brokenRead);
    await expect(
      putTikTokChunk({
        uploadUrl: `${base}/upload/answer`,
        first: 0,
        last: 299,
        total: 300,
        contentType: 'video/mp4',
        body: brokenSource(),
      }),
    ).rejects.toMatchObject(brokenRead);
    await expect(
      uploadFacebookReel(
        { baseUrl: base, accessToken: 't' },
        { uploadUrl: `${base}/upload/answer`, fileSize: 300, offset: 0, body: brokenSource() },
      ),
    ).rejects.toMatchObject(brokenRead);
  });

  test('when sending the bytes takes longer than the answer deadline, then only the wait after the last byte counts against it', async () => {
    await expect(
      putYouTubeChunk({ uploadBaseUrl: base, accessToken: 't' }, chunk('/upload/answer', slowBody(3, 250))),
    ).resolves.toEqual({ kind: 'complete', videoId: 'vid_1' });
  });
});
