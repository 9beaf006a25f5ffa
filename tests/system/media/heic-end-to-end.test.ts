import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestEnv, testServers, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

const run = promisify(execFile);

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let dir: string;
let heic: string;

/** A 640×480 HEIC photo, as phones make them: ffmpeg draws the test pattern, libheif's heif-enc encodes it. */
async function makeHeic(): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'postbus-heic-'));
  const png = join(dir, 'photo.png');
  await run(testServers.ffmpegPath, [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=640x480',
    '-frames:v',
    '1',
    png,
  ]);
  await run('/usr/bin/heif-enc', ['-q', '60', '-o', join(dir, 'photo.heic'), png]);
  return join(dir, 'photo.heic');
}

beforeAll(async () => {
  env = await createTestEnv('heic_e2e');
  [system, heic] = await Promise.all([startSystem(env), makeHeic()]);
  account = await system.seedAccount({ platforms: ['instagram', 'mastodon'], plan: 'pro' });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function call(path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${system.baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${account.apiKey}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function upload(bytes: Buffer, name: string): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'application/octet-stream' }), name);
  const res = await fetch(`${system.baseUrl}/api/v1/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account.apiKey}` },
    body: form,
  });
  return { status: res.status, body: await res.json() };
}

describe('HEIC photos', () => {
  test('when a HEIC photo is uploaded, then it is stored as image/heic with the figures libheif decodes; a damaged one is media_unreadable', async () => {
    const bytes = await readFile(heic);
    const up = await upload(bytes, 'IMG_0001.HEIC');
    expect(up.status).toBe(201);
    expect((await call(`/api/v1/media/${up.body.mediaId}`)).body).toMatchObject({
      contentType: 'image/heic',
      probe: { kind: 'image', container: 'heif', width: 640, height: 480, image: { format: 'hevc' } },
    });
    // The HEIC header kept, the coded picture cut away.
    const damaged = await upload(bytes.subarray(0, 600), 'broken.heic');
    expect(damaged).toMatchObject({ status: 400, body: { code: 'media_unreadable' } });
  });

  test('when a HEIC photo goes to Instagram, then without normalize it is refused (media_incompatible, content_type), with normalize it is posted as a JPEG rendition', async () => {
    const { mediaId } = (await upload(await readFile(heic), 'IMG_0002.HEIC')).body;
    const refused = await call('/api/v1/publish', { platforms: ['instagram'], mediaId, caption: 'heic as is' });
    expect(refused).toMatchObject({
      status: 400,
      body: {
        code: 'media_incompatible',
        details: { platform: 'instagram', rule: 'content_type', measured: 'image/heic', limit: ['image/jpeg'] },
      },
    });
    expect(refused.body.error).toMatch(/JPEG; this media is HEIC/);

    const created = await call('/api/v1/publish', {
      platforms: ['instagram'],
      mediaId,
      caption: 'heic normalized',
      normalize: true,
    });
    expect(created.status).toBe(201);
    const post = await waitFor(
      async () => {
        const p = (await call(`/api/v1/posts/${created.body.postIds[0]}`)).body;
        return ['posted', 'failed'].includes(p.status) ? p : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 100, what: 'the HEIC post to end' },
    );
    expect(post).toMatchObject({ status: 'posted' });
    const renditionId = new URL(post.mediaUrls[0]).pathname.split('/').pop()!;
    expect((await call(`/api/v1/media/${renditionId}`)).body).toMatchObject({
      contentType: 'image/jpeg',
      rendition: { sourceMediaId: mediaId, preset: 'instagram.feed_image' },
      probe: { width: 640, height: 480, image: { format: 'mjpeg' } },
    });
  });
});
