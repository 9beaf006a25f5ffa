import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { testServers, waitFor } from '@postbus/testing';
import { startSandbox, type RunningSandbox } from '../src/main';
import { call, control, newUser } from './emulator-client';

const run = promisify(execFile);

let sandbox: RunningSandbox;
let page: { userId: string; accessToken: string; handle: string };
let graph: string;
let dir: string;

/** Reels made by ffmpeg: what the reels requirements take, and one file breaking each of them. */
const REELS = {
  fits: { size: '540x960', rate: 30, seconds: 4, sampleRate: 48_000, codec: 'libx264' },
  landscape: { size: '960x540', rate: 30, seconds: 4, sampleRate: 48_000, codec: 'libx264' },
  small: { size: '360x640', rate: 30, seconds: 4, sampleRate: 48_000, codec: 'libx264' },
  short: { size: '540x960', rate: 30, seconds: 2, sampleRate: 48_000, codec: 'libx264' },
  slow: { size: '540x960', rate: 15, seconds: 4, sampleRate: 48_000, codec: 'libx264' },
  cd_audio: { size: '540x960', rate: 30, seconds: 4, sampleRate: 44_100, codec: 'libx264' },
  mpeg4: { size: '540x960', rate: 30, seconds: 4, sampleRate: 48_000, codec: 'mpeg4' },
} as const;
type ReelName = keyof typeof REELS;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'postbus-fb-reels-'));
  const make = ([name, r]: [string, (typeof REELS)[ReelName]]) =>
    run(testServers.ffmpegPath, [
      ...['-v', 'error', '-f', 'lavfi', '-i', `testsrc=size=${r.size}:rate=${r.rate}`],
      ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=${r.sampleRate}`],
      ...['-t', String(r.seconds), '-c:v', r.codec, ...(r.codec === 'libx264' ? ['-preset', 'ultrafast'] : [])],
      ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', join(dir, `${name}.mp4`)],
    ]);
  [sandbox] = await Promise.all([
    startSandbox({ port: 0, processingDelayMs: 0 }),
    Promise.all(Object.entries(REELS).map(make)),
  ]);
  graph = `${sandbox.url}/facebook/v26.0`;
});
afterAll(async () => {
  await sandbox?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await control(sandbox, 'POST', '/reset');
  page = await newUser(sandbox, 'facebook', 'the.page');
});

/** start → the file's bytes to rupload → finish PUBLISHED → the status once processing ended. */
async function publishReel(name: ReelName): Promise<any> {
  const post = (form: Record<string, string>) =>
    call(`${graph}/${page.userId}/video_reels`, { token: page.accessToken, form });
  const { video_id: videoId, upload_url: uploadUrl } = (await post({ upload_phase: 'start' })).body;
  const bytes = await readFile(join(dir, `${name}.mp4`));
  const up = await call(uploadUrl, {
    method: 'POST',
    token: page.accessToken,
    scheme: 'OAuth',
    headers: { offset: '0', file_size: String(bytes.length) },
    body: bytes,
  });
  expect(up.body).toEqual({ success: true });
  await post({ upload_phase: 'finish', video_id: videoId, video_state: 'PUBLISHED', description: name });
  return waitFor(
    async () => {
      const { status } = (await call(`${graph}/${videoId}?fields=status`, { token: page.accessToken })).body;
      return status.processing_phase.status === 'in_progress' ? undefined : status;
    },
    { timeoutMs: 20_000, intervalMs: 50, what: `reel ${name} to be processed` },
  );
}

describe("the Facebook reel emulator reads the uploaded bytes as Facebook's reels requirements do", () => {
  test('when a 9:16 540×960, 30 FPS, 4 s H.264 + AAC 48 kHz reel is uploaded, then it is processed and published', async () => {
    expect(await publishReel('fits')).toMatchObject({
      processing_phase: { status: 'complete' },
      publishing_phase: { status: 'complete', publish_status: 'published' },
    });
    expect((await control(sandbox, 'GET', '/published?platform=facebook')).body).toEqual([
      expect.objectContaining({ mediaType: 'REELS', text: 'fits' }),
    ]);
  });

  test.each([
    ['landscape', /aspect ratio/],
    ['small', /width of at least 540 px.*height of at least 960 px/],
    ['short', /lasts from 3 s to 90 s/],
    ['slow', /from 24 FPS to 60 FPS/],
    ['cd_audio', /audio from 48000 Hz to 48000 Hz; this video has 44100 Hz/],
    ['mpeg4', /must be encoded as H\.264, HEVC \(H\.265\), VP9, AV1/],
  ] as const)(
    'when the %s reel is uploaded, then processing ends in error naming the requirement, and nothing is published',
    async (name, reason) => {
      const status = await publishReel(name);
      expect(status).toMatchObject({
        video_status: 'error',
        processing_phase: { status: 'error', error: { message: expect.stringMatching(reason) } },
        publishing_phase: { status: 'error' },
      });
      expect((await control(sandbox, 'GET', '/published?platform=facebook')).body).toEqual([]);
    },
  );
});
