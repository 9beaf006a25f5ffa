import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Client } from 'pg';
import S3rver from 's3rver';
import { Rpc, type Principal } from '@postbus/contracts';
import { metricSample } from '@postbus/testing';
import { readConfig } from '../src/config';
import { aJpeg, anMp4 } from './support/media-files';
import { pathOf, startMediaHarness, uploadTo, type MediaHarness } from './support/media-harness';
import { file, startOrigin, type OriginServer } from './support/origin-server';

/**
 * Storage and the database disagree: a media row names an object the store no longer holds (an
 * emptied development folder, a second checkout on the same database, a bucket restored apart).
 */

interface Storage {
  harness: MediaHarness;
  /** Removes the object behind the media from the store, as an emptied folder or bucket would. */
  lose(mediaId: string): Promise<void>;
  close(): Promise<void>;
}

async function storageKeyOf(h: MediaHarness, mediaId: string): Promise<string> {
  const db = new Client({ connectionString: h.env.databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query(
      'SELECT b.storage_key FROM media.media m JOIN media.blobs b ON b.sha256 = m.sha256 WHERE m.id = $1',
      [mediaId],
    );
    return rows[0].storage_key;
  } finally {
    await db.end();
  }
}

async function localStorage(): Promise<Storage> {
  const harness = await startMediaHarness('media_missing_local');
  return {
    harness,
    lose: async (mediaId) => rm(join(harness.localDir, await storageKeyOf(harness, mediaId))),
    close: () => harness.stop(),
  };
}

async function s3Storage(): Promise<Storage> {
  const BUCKET = 'postbus-media';
  const dir = await mkdtemp(join(tmpdir(), 'postbus-s3rver-'));
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await s3.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const close = async () => {
    client.destroy();
    s3.httpServer?.closeAllConnections();
    await s3.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const harness = await startMediaHarness('media_missing_s3', {
      MEDIA_STORAGE: 's3',
      MEDIA_S3_BUCKET: BUCKET,
      MEDIA_S3_ENDPOINT: endpoint,
      MEDIA_S3_FORCE_PATH_STYLE: 'true',
      MEDIA_S3_ACCESS_KEY_ID: 'S3RVER',
      MEDIA_S3_SECRET_ACCESS_KEY: 'S3RVER',
    });
    return {
      harness,
      lose: async (mediaId) =>
        void (await client.send(
          new DeleteObjectCommand({ Bucket: BUCKET, Key: await storageKeyOf(harness, mediaId) }),
        )),
      close: async () => {
        await harness.stop();
        await close();
      },
    };
  } catch (err) {
    await close();
    throw err;
  }
}

describe.each([
  ['local', localStorage],
  ['s3', s3Storage],
])('with the %s storage driver', (_driver, open) => {
  let storage: Storage;
  let h: MediaHarness;
  let origin: OriginServer;

  beforeAll(async () => {
    storage = await open();
    h = storage.harness;
    origin = await startOrigin();
  });
  afterAll(async () => {
    await origin?.close();
    await storage?.close();
  });

  async function anAccount() {
    const account = await h.account();
    const principal: Principal = {
      accountId: account.accountId,
      userId: account.userId,
      credential: { type: 'api_key', id: account.keyId },
      scopes: ['media:write', 'media:read'],
      profileIds: 'all',
    };
    return { ...account, principal };
  }
  const fetchFile = (url: string, init: RequestInit = {}) => fetch(`${h.mediaUrl}${pathOf(url)}`, init);
  const bytesOf = async (res: Response) => Buffer.from(await res.arrayBuffer());
  const missingCount = async (operation: string) =>
    metricSample(await (await fetch(`${h.metricsUrl}/metrics`)).text(), 'postbus_media_objects_missing_total', {
      operation,
    }) ?? 0;

  test('when the object behind a media is gone and the same bytes are uploaded again, then they are stored anew and both media are served', async () => {
    const a = await anAccount();
    const bytes = aJpeg(48 * 1024);
    const first = await uploadTo(h.mediaUrl, a.apiKey, { bytes, name: 'first.jpg' });
    expect(first.status).toBe(201);
    await storage.lose(first.body.mediaId);
    const before = await missingCount('dedupe');

    const again = await uploadTo(h.mediaUrl, a.apiKey, { bytes, name: 'again.jpg' });
    expect(again.status).toBe(201);
    const served = await fetchFile(again.body.url);
    expect(served.status).toBe(200);
    expect((await bytesOf(served)).equals(bytes)).toBe(true);
    // The first media shares the content, so the new object restores it as well.
    const restored = await fetchFile(first.body.url);
    expect(restored.status).toBe(200);
    expect((await bytesOf(restored)).equals(bytes)).toBe(true);
    expect(await missingCount('dedupe')).toBe(before + 1);
  });

  test('when the object behind a media is gone, then its file URL answers 410 media_gone for GET, Range, HEAD and If-None-Match, never 500', async () => {
    const a = await anAccount();
    const bytes = anMp4(64 * 1024);
    const up = await uploadTo(h.mediaUrl, a.apiKey, { bytes, name: 'clip.mp4' });
    expect(up.status).toBe(201);
    const etag = (await fetchFile(up.body.url, { method: 'HEAD' })).headers.get('etag')!;
    await storage.lose(up.body.mediaId);
    const before = await missingCount('serve');

    for (const init of [
      {},
      { headers: { range: 'bytes=100-1123' } },
      { headers: { range: 'bytes=-10' } },
      { headers: { 'if-none-match': etag } },
    ] as RequestInit[]) {
      const res = await fetchFile(up.body.url, init);
      expect([JSON.stringify(init), res.status]).toEqual([JSON.stringify(init), 410]);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('content-range')).toBeNull();
      expect(await res.json()).toEqual({
        error: expect.stringContaining('Upload the same file again'),
        code: 'media_gone',
      });
    }
    const head = await fetchFile(up.body.url, { method: 'HEAD' });
    expect(head.status).toBe(410);
    expect(await missingCount('serve')).toBe(before + 5);

    // The API still answers the media with a fresh URL (a publisher asks for one); reading it answers 410.
    const resolved = await h.bus.rpc.call(Rpc.mediaResolve, { mediaId: up.body.mediaId }, a.principal);
    expect(resolved.mediaId).toBe(up.body.mediaId);
    expect((await fetchFile(resolved.url)).status).toBe(410);
    const listed = await h.bus.rpc.call(Rpc.mediaGet, { mediaId: up.body.mediaId }, a.principal);
    expect((await fetchFile(listed.url, { headers: { range: 'bytes=0-9' } })).status).toBe(410);
  });

  test('when the object behind an imported link is gone and the link is imported again, then it is downloaded again and served', async () => {
    const a = await anAccount();
    const photo = aJpeg(40 * 1024);
    const path = `/lost-${Math.random().toString(36).slice(2)}.jpg`;
    origin.route(path, file(photo, 'image/jpeg'));
    const first = await h.bus.rpc.call(Rpc.mediaImportFromUrl, { url: `${origin.url}${path}` }, a.principal, {
      timeoutMs: 30_000,
    });
    await storage.lose(first.mediaId);

    const again = await h.bus.rpc.call(Rpc.mediaImportFromUrl, { url: `${origin.url}${path}` }, a.principal, {
      timeoutMs: 30_000,
    });
    expect(origin.hits.get(path)).toBe(2);
    expect(again.mediaId).toBe(first.mediaId);
    const served = await fetchFile(again.url);
    expect(served.status).toBe(200);
    expect((await bytesOf(served)).equals(photo)).toBe(true);
  });
});

describe('where the local driver keeps objects', () => {
  test('when MEDIA_LOCAL_DIR is not set, then objects go under .data/media/<database name>, so another database never sees them', () => {
    expect(readConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postbus' }).MEDIA_LOCAL_DIR).toBe(
      join('.data', 'media', 'postbus'),
    );
    expect(readConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postbus_clone' }).MEDIA_LOCAL_DIR).toBe(
      join('.data', 'media', 'postbus_clone'),
    );
    expect(readConfig({ DATABASE_URL: 'postgres://postgres@db/../../etc' }).MEDIA_LOCAL_DIR).toMatch(
      /^\.data[/\\]media[/\\][\w.-]+$/,
    );
    expect(
      readConfig({ DATABASE_URL: 'postgres://postgres@db/postbus', MEDIA_LOCAL_DIR: '/srv/media' }).MEDIA_LOCAL_DIR,
    ).toBe('/srv/media');
  });
});
