import { readFile } from 'node:fs/promises';
import { createTestEnv, makeTestMedia, type SeededAccount, type TestEnv, type TestMedia } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { api, inHours } from '../support/posts-api';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let files: TestMedia;
const ids: Record<'landscape' | 'portrait' | 'long' | 'slow', string> = {
  landscape: '',
  portrait: '',
  long: '',
  slow: '',
};

beforeAll(async () => {
  env = await createTestEnv('posts_media_rules');
  [system, files] = await Promise.all([startSystem(env), makeTestMedia()]);
  account = await system.seedAccount({ platforms: ['instagram', 'facebook', 'threads'], plan: 'pro' });
  const paths = {
    landscape: files.landscapeMp4,
    portrait: files.portraitMp4,
    long: files.longMp4,
    slow: files.slowMp4,
  };
  for (const [name, path] of Object.entries(paths)) ids[name as keyof typeof ids] = await upload(path);
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
  await files?.remove();
});

/** Uploads through the real media service, which probes the file. */
async function upload(path: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([await readFile(path)], { type: 'video/mp4' }), 'clip.mp4');
  const res = await fetch(`${system.baseUrl}/api/v1/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account.apiKey}` },
    body: form,
  });
  const body = (await res.json()) as { mediaId: string };
  if (res.status !== 201)
    throw new Error(`the media service did not take ${path} (${res.status} ${JSON.stringify(body)})`);
  return body.mediaId;
}

const post = (path: string, body: unknown) => api(system, path, { method: 'POST', key: account.apiKey, body });

describe('posts whose media a platform refuses', () => {
  test('when a 16:9 video is posted as a Facebook reel, then 400 media_incompatible names the platform, rule, measure and limit, and nothing is stored', async () => {
    const r = await post('/api/v1/posts', {
      platforms: ['facebook'],
      mediaId: ids.landscape,
      platformMeta: { facebook: { reel: true } },
      scheduledTime: inHours(2),
      externalId: 'fb-reel-16-9',
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      code: 'media_incompatible',
      error: expect.stringContaining('A Facebook reel needs an aspect ratio'),
      details: {
        platform: 'facebook',
        rule: 'aspect_ratio',
        measured: 1.778,
        limit: { min: 0.55, max: 0.58 },
        field: 'mediaId',
      },
    });
    expect(r.body.details.problems.map((p: { rule: string }) => p.rule)).toEqual(['aspect_ratio', 'width', 'height']);
    expect(
      (await api(system, '/api/v1/posts?externalId=fb-reel-16-9', { key: account.apiKey })).body.data,
    ).toHaveLength(0);
  });

  test('when a 12 FPS video is published to Threads now, then 400 media_incompatible (frame_rate); a 9:16 video at 30 FPS is taken', async () => {
    const refused = await post('/api/v1/publish', { platforms: ['threads'], mediaId: ids.slow, caption: 'slow' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'media_incompatible',
      details: { platform: 'threads', rule: 'frame_rate', measured: 12, limit: { min: 23, max: 60 } },
    });
    const taken = await post('/api/v1/posts', {
      platforms: ['threads', 'instagram'],
      mediaId: ids.portrait,
      scheduledTime: inHours(3),
    });
    expect(taken.status).toBe(201);
  });

  test('when a post is changed to a video its platform refuses, then 400 media_incompatible and the post keeps its media', async () => {
    const created = await post('/api/v1/posts', {
      platforms: ['instagram'],
      mediaId: ids.portrait,
      platformMeta: { instagram: { story: true } },
      scheduledTime: inHours(4),
    });
    expect(created.status).toBe(201);
    const id = created.body.postIds[0];
    const r = await api(system, `/api/v1/posts/${id}`, {
      method: 'PATCH',
      key: account.apiKey,
      body: { mediaId: ids.long },
    });
    expect(r.body).toMatchObject({
      code: 'media_incompatible',
      details: { platform: 'instagram', rule: 'duration', measured: 240, limit: { min: 3, max: 60 } },
    });
    expect((await api(system, `/api/v1/posts/${id}`, { key: account.apiKey })).body.mediaUrls[0]).toContain(
      ids.portrait,
    );
  });

  test('when a 4-minute video is validated for an Instagram story, a Facebook reel and Threads, then every problem is listed at once', async () => {
    const v = await post('/api/v1/posts/validate', {
      platforms: ['instagram', 'facebook', 'threads'],
      mediaId: ids.long,
      platformMeta: { instagram: { story: true }, facebook: { reel: true } },
    });
    expect(v.status).toBe(200);
    expect(v.body.valid).toBe(false);
    const rules = v.body.problems
      .filter((p: { code: string }) => p.code === 'media_incompatible')
      .map((p: { platform: string; rule: string }) => `${p.platform}:${p.rule}`);
    expect(rules).toEqual([
      'instagram:duration',
      'facebook:aspect_ratio',
      'facebook:width',
      'facebook:height',
      'facebook:duration',
    ]);
    expect(v.body.problems).toContainEqual({
      code: 'media_incompatible',
      message: 'mediaId: An Instagram story video lasts from 3 s to 60 s; this video lasts 240 s.',
      platform: 'instagram',
      field: 'mediaId',
      rule: 'duration',
      measured: 240,
      limit: { min: 3, max: 60 },
    });
  });
});
