import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { deflateRawSync } from 'node:zlib';
import { MEDIA_MAX_BYTES } from '@postbus/contracts';
import { createTestEnv, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { call, isCodedRefusal, SystemHoldings } from './support';

/**
 * Uploads a hostile client sends through the gateway: a file over the limit, a multipart body
 * cut short or abandoned, a Content-Type that lies, a zip bomb named .mp4. Each is refused with
 * its code (or, for a mislabelled real image, stored under the type its bytes show) and leaves
 * no row and no stored object behind.
 */

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let holdings: SystemHoldings;
const mediaDir = join(tmpdir(), `postbus-hostile-uploads-${randomBytes(4).toString('hex')}`);
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const MP4_HEAD = Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex');

beforeAll(async () => {
  env = await createTestEnv('hostile_uploads');
  system = await startSystem(env, {
    RATE_LIMIT_PER_MINUTE: '0',
    SCHEDULER_TICK_MS: '3600000',
    MEDIA_LOCAL_DIR: mediaDir,
  });
  account = await system.seedAccount({ platforms: ['threads'], plan: 'pro' });
  holdings = await SystemHoldings.open(env.databaseUrl, mediaDir);
});
afterAll(async () => {
  await holdings?.close();
  await system?.stop();
  await env?.drop();
  await rm(mediaDir, { recursive: true, force: true });
});

interface Raw {
  status: number;
  body: any;
}

/**
 * POST /api/v1/media with a hand-made multipart body: `parts` are sent as they come, `length`
 * is the Content-Length announced (default: the real one).
 */
function postMultipart(
  boundary: string,
  parts: AsyncIterable<Buffer> | Buffer[],
  length?: number,
  contentType = `multipart/form-data; boundary=${boundary}`,
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {
      authorization: `Bearer ${account.apiKey}`,
      'content-type': contentType,
    };
    if (length !== undefined) headers['content-length'] = length;
    else headers['transfer-encoding'] = 'chunked';
    const req = request(`${system.baseUrl}/api/v1/media`, { method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    Readable.from(parts).pipe(req);
  });
}

const partHead = (boundary: string, filename: string, type: string) =>
  Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
const partTail = (boundary: string) => Buffer.from(`\r\n--${boundary}--\r\n`);
const asAnswer = (r: Raw) => ({ status: r.status, headers: new Headers(), body: r.body, text: JSON.stringify(r.body) });

/** A zip archive holding one deflated file of `size` zero bytes: a few kB that expand to `size`. */
function zipBomb(size: number, name = 'inner.bin'): Buffer {
  const data = deflateRawSync(Buffer.alloc(size));
  const crc = crc32(size);
  const nameBuf = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(size, 22);
  local.writeUInt16LE(nameBuf.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(size, 24);
  central.writeUInt16LE(nameBuf.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBuf.length, 12);
  end.writeUInt32LE(local.length + nameBuf.length + data.length, 16);
  return Buffer.concat([local, nameBuf, data, central, nameBuf, end]);
}

/** CRC-32 of `size` zero bytes. */
function crc32(size: number): number {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let crc = 0xffffffff;
  for (let i = 0; i < size; i++) crc = table[crc & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

describe('hostile uploads', () => {
  test('when a file one byte over the limit is streamed, then 413 file_too_large and nothing is stored', async () => {
    const before = await holdings.take();
    const boundary = `b${randomBytes(8).toString('hex')}`;
    const chunk = Buffer.alloc(1024 * 1024, 1);
    const size = MEDIA_MAX_BYTES + 1;
    async function* body() {
      yield partHead(boundary, 'big.mp4', 'video/mp4');
      yield MP4_HEAD;
      for (let sent = MP4_HEAD.length; sent < size; sent += chunk.length)
        yield chunk.subarray(0, Math.min(chunk.length, size - sent));
      yield partTail(boundary);
    }
    const answer = await postMultipart(boundary, body());
    expect(answer).toMatchObject({ status: 413, body: { code: 'file_too_large' } });
    await holdings.expectNothingStoredSince(before);
  });

  test('when the multipart body ends before its closing boundary, then a 4xx with its code and nothing is stored', async () => {
    const before = await holdings.take();
    const boundary = `b${randomBytes(8).toString('hex')}`;
    const parts = [partHead(boundary, 'cut.png', 'image/png'), PNG, randomBytes(4096)];
    const answer = await postMultipart(
      boundary,
      parts,
      parts.reduce((n, p) => n + p.length, 0),
    );
    expect(isCodedRefusal(asAnswer(answer))).toBe(true);
    await holdings.expectNothingStoredSince(before);
  });

  test('when the client goes away in the middle of an upload, then nothing of it stays stored', async () => {
    const before = await holdings.take();
    const boundary = `b${randomBytes(8).toString('hex')}`;
    let writing: boolean | Error = false;
    await new Promise<void>((resolve) => {
      const req = request(`${system.baseUrl}/api/v1/media`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${account.apiKey}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': 10 * 1024 * 1024,
        },
      });
      req.on('error', () => resolve());
      req.write(partHead(boundary, 'gone.mp4', 'video/mp4'));
      req.write(MP4_HEAD);
      // Gone only once media is writing the upload: on a loaded machine it may not have begun after a fixed pause.
      req.write(Buffer.alloc(2 * 1024 * 1024, 3), () => {
        void waitFor(async () => ((await holdings.storedFiles()).some((f) => f.endsWith('.part')) ? true : undefined), {
          timeoutMs: 10_000,
          what: 'media to begin writing the upload',
        })
          .then(
            () => (writing = true),
            (err: Error) => (writing = err),
          )
          .finally(() => req.destroy());
      });
      req.on('close', () => resolve());
    });
    expect(writing).toBe(true);
    // Staging is cleaned up once the broken stream is noticed.
    await waitFor(async () => ((await holdings.storedFiles()).join() === before.files.join() ? true : undefined), {
      timeoutMs: 5000,
      what: 'the abandoned upload to be removed',
    });
    await holdings.expectNothingStoredSince(before);
  });

  test('when the Content-Type and the name claim an image but the bytes are a web page, then 400 unsupported_media_type and nothing is stored', async () => {
    const before = await holdings.take();
    const boundary = `b${randomBytes(8).toString('hex')}`;
    const page = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
    const answer = await postMultipart(boundary, [
      partHead(boundary, 'photo.png', 'image/png'),
      page,
      partTail(boundary),
    ]);
    expect(answer).toMatchObject({ status: 400, body: { code: 'unsupported_media_type' } });
    await holdings.expectNothingStoredSince(before);
  });

  test('when a real image is sent as video/mp4 named clip.mp4, then it is stored as the image its bytes show', async () => {
    const boundary = `b${randomBytes(8).toString('hex')}`;
    const answer = await postMultipart(boundary, [
      partHead(boundary, 'clip.mp4', 'video/mp4'),
      PNG,
      partTail(boundary),
    ]);
    expect(answer.status).toBe(201);
    const media = await call(system.baseUrl, 'get', `/api/v1/media/${answer.body.mediaId}`, { key: account.apiKey });
    expect(media.body).toMatchObject({ mediaId: answer.body.mediaId, contentType: 'image/png', sizeBytes: PNG.length });
  });

  test('when a zip bomb is sent as video/mp4 named bomb.mp4, then 400 unsupported_media_type, it is never expanded, and nothing is stored', async () => {
    const before = await holdings.take();
    const boundary = `b${randomBytes(8).toString('hex')}`;
    const bomb = zipBomb(64 * 1024 * 1024, 'movie.mp4');
    expect(bomb.length).toBeLessThan(256 * 1024);
    const answer = await postMultipart(boundary, [
      partHead(boundary, 'bomb.mp4', 'video/mp4'),
      bomb,
      partTail(boundary),
    ]);
    expect(answer).toMatchObject({ status: 400, body: { code: 'unsupported_media_type' } });
    await holdings.expectNothingStoredSince(before);
  });

  test('when the body is not multipart at all, then a 4xx with its code and nothing is stored', async () => {
    const before = await holdings.take();
    const asJson = await call(system.baseUrl, 'post', '/api/v1/media', {
      key: account.apiKey,
      body: { file: PNG.toString('base64') },
    });
    const noBoundary = await postMultipart('x', [PNG], PNG.length, 'multipart/form-data');
    const manyParts = await postMultipart('m', [
      Buffer.from(
        Array.from({ length: 200 }, (_, i) => `--m\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`).join(
          '',
        ) + '--m--\r\n',
      ),
    ]);
    for (const answer of [asJson, asAnswer(noBoundary), asAnswer(manyParts)])
      expect({ status: answer.status, body: answer.body, coded: isCodedRefusal(answer) }).toMatchObject({
        coded: true,
      });
    await holdings.expectNothingStoredSince(before);
  });
});
