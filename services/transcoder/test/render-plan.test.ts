import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MediaProbe } from '@postbus/contracts';
import { probeFigures, runFfprobe } from '@postbus/kit';
import { checkMediaRules, parseRenditionPreset, type MediaTarget } from '@postbus/platforms';
import { makeTestMedia, testServers, type TestMedia } from '@postbus/testing';
import { frameFor, NotNormalizable, renderPlan } from '../src/transcode/render-plan';
import { runFfmpeg } from '../src/transcode/run-ffmpeg';

const FFPROBE = testServers.ffmpegPath.replace(/ffmpeg$/, 'ffprobe');
const settings = { threads: 1, x264Preset: 'veryfast', maxVideoBitRate: 8_000_000 };

let files: TestMedia;
let out: string;
beforeAll(async () => {
  [files, out] = await Promise.all([makeTestMedia(), mkdtemp(join(tmpdir(), 'postbus-render-'))]);
});
afterAll(async () => {
  await files?.remove();
  if (out) await rm(out, { recursive: true, force: true });
});

async function probe(file: string, contentType: string): Promise<MediaProbe> {
  return probeFigures(
    await runFfprobe(FFPROBE, file, { timeoutMs: 20_000, maxOutputBytes: 1024 * 1024 }),
    contentType,
  )!;
}

/** Renders `source` for `preset` and answers the rendition's figures. */
async function render(
  source: string,
  preset: string,
  onProgress?: (p: number) => void,
): Promise<{ file: string; probe: MediaProbe }> {
  const plan = renderPlan(await probe(source, 'video/mp4'), parseRenditionPreset(preset)!, settings);
  const file = join(out, `${preset}-${Math.random().toString(36).slice(2)}.${plan.kind === 'video' ? 'mp4' : 'jpg'}`);
  await runFfmpeg({
    ffmpegPath: testServers.ffmpegPath,
    input: source,
    output: file,
    inputArgs: plan.inputArgs,
    args: plan.args,
    timeoutMs: 60_000,
    durationSec: plan.durationSec,
    onProgress,
  });
  return { file, probe: await probe(file, plan.kind === 'video' ? 'video/mp4' : 'image/jpeg') };
}

describe('the frame of a rendition', () => {
  test('when a 16:9 frame is fitted to a Facebook reel, then it becomes a 9:16 frame at least 540×960, from a 1080p one 1080×1920', () => {
    const reel = { aspectRatio: { min: 0.55, max: 0.58 }, width: { min: 540 }, height: { min: 960 } };
    expect(frameFor(320, 180, reel)).toEqual({ width: 540, height: 960 });
    expect(frameFor(1920, 1080, reel)).toEqual({ width: 1080, height: 1920 });
  });

  test('when the source already has a shape the target takes, then only size bounds change it', () => {
    expect(frameFor(640, 480, { aspectRatio: { min: 0.8, max: 1.91 } })).toEqual({ width: 640, height: 480 });
    expect(frameFor(3840, 2160, { aspectRatio: { min: 0.01, max: 10 }, width: { max: 1920 } })).toEqual({
      width: 1920,
      height: 1080,
    });
  });

  test('when an 11:1 frame is fitted to an Instagram reel (at most 10:1), then it gets the nearest known shape inside, 1.91:1', () => {
    expect(frameFor(1100, 100, { aspectRatio: { min: 0.01, max: 10 }, width: { max: 1920 } })).toEqual({
      width: 1100,
      height: 574,
    });
  });
});

describe('rendering with ffmpeg', () => {
  test('when the 16:9 test video is rendered for a Facebook reel, then it is H.264 High yuv420p + AAC 48 kHz in an MP4 with its index first, 540×960, and breaks no reel rule', async () => {
    const { file, probe: p } = await render(files.landscapeMp4, 'facebook.reel');
    expect(p).toMatchObject({
      kind: 'video',
      width: 540,
      height: 960,
      video: { codec: 'h264', profile: 'High', pixelFormat: 'yuv420p' },
      audio: { codec: 'aac', sampleRate: 48_000 },
    });
    const bytes = await readFile(file);
    expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'));
    expect(
      checkMediaRules(
        'facebook',
        { contentType: 'video/mp4', sizeBytes: bytes.length, probe: p },
        { items: 1, settings: { facebook: { reel: true } } },
      ),
    ).toEqual([]);
  });

  test('when a 12 FPS video is rendered for Threads, then its frame rate is raised to the 23 FPS Threads takes at least', async () => {
    const { probe: p } = await render(files.slowMp4, 'threads.video');
    expect(p.video?.frameRate).toBe(23);
  });

  test('when a 240 s video is rendered with trim for an Instagram story (60 s at most), then it lasts 60 s, and progress rises to 100', async () => {
    const seen: number[] = [];
    const { probe: p } = await render(files.longMp4, 'instagram.story_video+trim', (pct) => seen.push(pct));
    expect(p.durationSec).toBeCloseTo(60, 0);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen[seen.length - 1]).toBe(100);
  });

  test('when a PNG is rendered for an Instagram feed image, then it is a JPEG of the same size that the feed takes', async () => {
    const plan = renderPlan(
      await probe(files.png, 'image/png'),
      parseRenditionPreset('instagram.feed_image')!,
      settings,
    );
    const file = join(out, 'still.jpg');
    await runFfmpeg({
      ffmpegPath: testServers.ffmpegPath,
      input: files.png,
      output: file,
      args: plan.args,
      timeoutMs: 60_000,
      durationSec: null,
    });
    const p = await probe(file, 'image/jpeg');
    expect(p).toMatchObject({ kind: 'image', width: 640, height: 480, image: { format: 'mjpeg' } });
    expect((await readFile(file)).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });
});

describe('a cover frame', () => {
  test('when a cover is made at 2 s of a 16:9 video for an Instagram reel and a YouTube video, then each is one JPEG of the frame the target takes', async () => {
    const reel = await render(files.landscapeMp4, 'instagram.reel+cover2000');
    expect(reel.probe).toMatchObject({ kind: 'image', width: 320, height: 180, image: { format: 'mjpeg' } });
    expect((await readFile(reel.file)).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const thumb = await render(files.wideMp4, 'youtube.video+cover0');
    expect(thumb.probe).toMatchObject({ kind: 'image', width: 1100, height: 100 });
  });

  test('when covers are made at 0.5 s and 3.5 s of the test pattern, then they differ (the offset picks the frame)', async () => {
    const early = await render(files.landscapeMp4, 'instagram.reel+cover500');
    const late = await render(files.landscapeMp4, 'instagram.reel+cover3500');
    expect(await readFile(early.file)).not.toEqual(await readFile(late.file));
  });

  test('when the cover frame lies past the end, or the target takes no cover image, then NotNormalizable says why', async () => {
    const p = await probe(files.landscapeMp4, 'video/mp4');
    expect(() => renderPlan(p, parseRenditionPreset('instagram.reel+cover9000')!, settings)).toThrow(
      /past the end of the video \(4 s\)/,
    );
    expect(() => renderPlan(p, parseRenditionPreset('tiktok.video+cover100')!, settings)).toThrow(
      new NotNormalizable('A TikTok video takes no cover image.'),
    );
  });
});

describe('what a rendition cannot mend', () => {
  const probeOf = (over: Partial<MediaProbe>): MediaProbe => ({
    kind: 'video',
    container: 'mov,mp4',
    width: 320,
    height: 180,
    durationSec: 4,
    bitRate: null,
    audio: null,
    ...over,
  });
  const plan = (target: MediaTarget, p: MediaProbe) => () => renderPlan(p, parseRenditionPreset(target)!, settings);

  test('when a video is too short, or too long without trim, or an image is asked to be a video, then NotNormalizable says why', () => {
    expect(plan('facebook.reel', probeOf({ durationSec: 2 }))).toThrow(
      new NotNormalizable(
        'A Facebook reel lasts at least 3 s; this video lasts 2 s, and a rendition does not lengthen it.',
      ),
    );
    expect(plan('facebook.reel', probeOf({ durationSec: 120 }))).toThrow(
      /lasts at most 90 s; this video lasts 120 s \(normalize with \{ "trim": true \} to cut it\)/,
    );
    expect(plan('youtube.video', probeOf({ kind: 'image' }))).toThrow(/must be a video/);
  });
});
