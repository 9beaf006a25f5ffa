import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { MEDIA_MAX_BYTES, Rpc, type Principal } from '@postbus/contracts';
import { anMp4, aJpeg, MB, TINY_PNG } from './support/media-files';
import { pathOf, startMediaHarness, uploadTo, type MediaHarness } from './support/media-harness';
import { file, startOrigin, type OriginServer } from './support/origin-server';

const BUCKET = 'postbus-media';
let s3: S3rver;
let s3Dir: string;
let client: S3Client;
let h: MediaHarness;
let origin: OriginServer;

beforeAll(async () => {
  s3Dir = await mkdtemp(join(tmpdir(), 'postbus-s3rver-'));
  s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await s3.run();
  const endpoint = `http://127.0.0.1:${port}`;
  client = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  h = await startMediaHarness('media_s3', {
    MEDIA_STORAGE: 's3',
    MEDIA_S3_BUCKET: BUCKET,
    MEDIA_S3_ENDPOINT: endpoint,
    MEDIA_S3_FORCE_PATH_STYLE: 'true',
    MEDIA_S3_ACCESS_KEY_ID: 'S3RVER',
    MEDIA_S3_SECRET_ACCESS_KEY: 'S3RVER',
  });
  origin = await startOrigin();
});
afterAll(async () => {
  await origin?.close();
  await h?.stop();
  client?.destroy();
  s3?.httpServer?.closeAllConnections();
  await s3?.close().catch(() => undefined);
  await rm(s3Dir, { recursive: true, force: true });
});

async function bucketKeys(): Promise<string[]> {
  const res = await client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  return (res.Contents ?? []).map((o) => o.Key!).sort();
}
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
async function anAccount(plan?: string) {
  const account = await h.account(plan ? { plan } : {});
  const principal: Principal = {
    accountId: account.accountId,
    userId: account.userId,
    credential: { type: 'api_key', id: account.keyId },
    scopes: ['media:write'],
    profileIds: 'all',
  };
  return { ...account, principal };
}

describe('the S3 storage driver (against s3rver)', () => {
  test('when a 12 MB video is uploaded, then it goes up in parts and is served back byte for byte, ranges included', async () => {
    const a = await anAccount();
    const bytes = anMp4(12 * MB + 123);
    const before = await bucketKeys();
    const r = await uploadTo(h.mediaUrl, a.apiKey, { bytes, name: 'long.mp4' });
    expect(r.status).toBe(201);
    expect((await bucketKeys()).length).toBe(before.length + 1);

    const whole = await fetch(`${h.mediaUrl}${pathOf(r.body.url)}`);
    expect(whole.headers.get('content-length')).toBe(String(bytes.length));
    expect(sha(Buffer.from(await whole.arrayBuffer()))).toBe(sha(bytes));

    const across = await fetch(`${h.mediaUrl}${pathOf(r.body.url)}`, {
      headers: { range: `bytes=${5 * MB - 10}-${5 * MB + 9}` },
    });
    expect(across.status).toBe(206);
    expect(Buffer.from(await across.arrayBuffer()).equals(bytes.subarray(5 * MB - 10, 5 * MB + 10))).toBe(true);
  });

  test('when a small image is uploaded and a link imported, then both are stored in the bucket and served', async () => {
    const a = await anAccount();
    const up = await uploadTo(h.mediaUrl, a.apiKey, { bytes: TINY_PNG });
    expect(up.status).toBe(201);
    expect(Buffer.from(await (await fetch(`${h.mediaUrl}${pathOf(up.body.url)}`)).arrayBuffer()).equals(TINY_PNG)).toBe(
      true,
    );

    const photo = aJpeg(700 * 1024);
    origin.route('/s3-photo.jpg', file(photo, 'image/jpeg'));
    const imported = await h.bus.rpc.call(Rpc.mediaImportFromUrl, { url: `${origin.url}/s3-photo.jpg` }, a.principal, {
      timeoutMs: 30_000,
    });
    expect(imported).toMatchObject({ contentType: 'image/jpeg', sizeBytes: photo.length });
    expect(sha(Buffer.from(await (await fetch(`${h.mediaUrl}${pathOf(imported.url)}`)).arrayBuffer()))).toBe(
      sha(photo),
    );
  });

  test('when an upload passes 50 MB, then 413 file_too_large and nothing is left in the bucket', async () => {
    const a = await anAccount('pro');
    const before = await bucketKeys();
    const r = await uploadTo(h.mediaUrl, a.apiKey, { bytes: anMp4(MEDIA_MAX_BYTES + 1) });
    expect(r.status).toBe(413);
    expect(r.body.code).toBe('file_too_large');
    expect(await bucketKeys()).toEqual(before);
  });

  test('when the same bytes are uploaded twice, then the bucket holds one object until both media are deleted', async () => {
    const a = await anAccount();
    const bytes = aJpeg(64 * 1024);
    const before = await bucketKeys();
    const first = await uploadTo(h.mediaUrl, a.apiKey, { bytes });
    const second = await uploadTo(h.mediaUrl, a.apiKey, { bytes });
    const stored = await bucketKeys();
    expect(stored.length).toBe(before.length + 1);
    await h.bus.rpc.call(Rpc.mediaDelete, { mediaId: first.body.mediaId }, a.principal);
    expect(await bucketKeys()).toEqual(stored);
    await h.bus.rpc.call(Rpc.mediaDelete, { mediaId: second.body.mediaId }, a.principal);
    expect(await bucketKeys()).toEqual(before);
  });
});
