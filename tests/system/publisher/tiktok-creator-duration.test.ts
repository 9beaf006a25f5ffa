import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestEnv, testServers, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { endedPost } from '../support/posts-api';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let dir: string;

/** A video TikTok takes in every other respect: 360×640, H.264, 30 FPS, 6 s. */
const VIDEO_SECONDS = 6;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'postbus-tiktok-duration-'));
  await promisify(execFile)(testServers.ffmpegPath, [
    ...[
      '-v',
      'error',
      '-nostdin',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=360x640:rate=30',
      '-t',
      String(VIDEO_SECONDS),
    ],
    ...[
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-movflags',
      '+faststart',
      join(dir, 'clip.mp4'),
    ],
  ]);
  env = await createTestEnv('tiktok_creator_duration');
  system = await startSystem(env);
  account = await system.seedAccount({ platforms: ['tiktok'], plan: 'pro' });
  await sandbox('/tiktok/audit', { unaudited: false });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
  await rm(dir, { recursive: true, force: true });
});

const auth = () => ({ authorization: `Bearer ${account.apiKey}` });

async function sandbox(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${system.sandboxUrl}/__sandbox${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

async function upload(): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([await readFile(join(dir, 'clip.mp4'))], { type: 'video/mp4' }), 'clip.mp4');
  const res = await fetch(`${system.baseUrl}/api/v1/media`, { method: 'POST', headers: auth(), body: form });
  expect(res.status).toBe(201);
  return ((await res.json()) as { mediaId: string }).mediaId;
}

async function publishNow(mediaId: string): Promise<string> {
  const res = await fetch(`${system.baseUrl}/api/v1/publish`, {
    method: 'POST',
    headers: { ...auth(), 'content-type': 'application/json' },
    body: JSON.stringify({
      platforms: ['tiktok'],
      title: 'A clip',
      caption: 'A clip',
      mediaId,
      platformMeta: { tiktok: { privacyLevel: 'SELF_ONLY' } },
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { postIds: string[] }).postIds[0];
}

const settled = (postId: string): Promise<{ status: string; failedReason: string | null }> =>
  endedPost(system, account.apiKey, postId, 30_000);

type Received = { seq: number; method: string; path: string };

async function receivedSince(seq: number, platform?: string): Promise<Received[]> {
  const res = await fetch(
    `${system.sandboxUrl}/__sandbox/requests?since=${seq}${platform ? `&platform=${platform}` : ''}`,
  );
  return ((await res.json()) as Received[]).filter((r) => r.seq > seq);
}

describe("a TikTok creator's longest video, at publish time", () => {
  test("when the creator may post shorter videos than the stored one, then the post fails before any upload with the creator's limit and the video's length", async () => {
    const mediaId = await upload();
    await sandbox('/tiktok/limits', { maxVideoPostDurationSec: VIDEO_SECONDS - 3 });
    const since = (await receivedSince(0)).at(-1)?.seq ?? 0;

    const post = await settled(await publishNow(mediaId));

    expect(post.status).toBe('failed');
    expect(post.failedReason).toBe(
      `A TikTok video on this account lasts at most ${VIDEO_SECONDS - 3} s (the creator's limit on TikTok); this video lasts ${VIDEO_SECONDS} s. Trim the video to that length, or post it from an account TikTok allows longer videos.`,
    );
    expect((await receivedSince(since, 'tiktok')).map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /tiktok/v2/post/publish/creator_info/query/',
    ]);
  });

  test('when the creator may post the stored video, then it is posted', async () => {
    const mediaId = await upload();
    await sandbox('/tiktok/limits', { maxVideoPostDurationSec: 600 });

    const post = await settled(await publishNow(mediaId));

    expect(post).toMatchObject({ status: 'posted', failedReason: null });
  });
});
