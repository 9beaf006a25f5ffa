import { readFile } from 'node:fs/promises';
import { Rpc, type MediaAsset, type Principal } from '@postbus/contracts';
import { makeTestMedia, type TestMedia } from '@postbus/testing';
import { aJpeg, anMp4 } from './support/media-files';
import { startMediaHarness, uploadTo, type MediaHarness } from './support/media-harness';
import { file, startOrigin, type OriginServer } from './support/origin-server';

let h: MediaHarness;
let files: TestMedia;
let origin: OriginServer;

beforeAll(async () => {
  [h, files, origin] = await Promise.all([startMediaHarness('media_probe'), makeTestMedia(), startOrigin()]);
});
afterAll(async () => {
  await Promise.all([h?.stop(), files?.remove(), origin?.close()]);
});

async function anAccount() {
  const account = await h.account();
  const principal: Principal = {
    accountId: account.accountId,
    userId: account.userId,
    credential: { type: 'api_key', id: account.keyId },
    scopes: ['media:write'],
    profileIds: 'all',
  };
  return { ...account, principal };
}

async function uploaded(a: Awaited<ReturnType<typeof anAccount>>, path: string): Promise<MediaAsset> {
  const up = await uploadTo(h.mediaUrl, a.apiKey, { bytes: await readFile(path) });
  expect(up.status).toBe(201);
  return h.bus.rpc.call(Rpc.mediaGet, { mediaId: up.body.mediaId }, a.principal);
}

describe('probing stored media', () => {
  test('when a 16:9 H.264 MP4 is uploaded, then its container, size, duration, frame rate, codecs and audio are part of the media', async () => {
    const a = await anAccount();
    const asset = await uploaded(a, files.landscapeMp4);
    expect(asset.probe).toEqual({
      kind: 'video',
      container: 'mov,mp4,m4a,3gp,3g2,mj2',
      width: 320,
      height: 180,
      durationSec: expect.closeTo(4, 0),
      bitRate: expect.any(Number),
      video: {
        codec: 'h264',
        profile: expect.any(String),
        width: 320,
        height: 180,
        rotation: 0,
        frameRate: 30,
        bitRate: expect.any(Number),
        pixelFormat: 'yuv420p',
        colorSpace: null,
        colorTransfer: null,
        colorPrimaries: null,
      },
      audio: { codec: 'aac', channels: 1, sampleRate: 48_000 },
    });
  });

  test('when a 9:16 MP4, a 4-minute video, an HEVC MOV and a PNG are uploaded, then each shows its own figures', async () => {
    const a = await anAccount();
    const [portrait, long, hevc, png] = await Promise.all(
      [files.portraitMp4, files.longMp4, files.hevcMov, files.png].map((f) => uploaded(a, f)),
    );
    expect(portrait.probe).toMatchObject({
      kind: 'video',
      width: 180,
      height: 320,
      video: { codec: 'h264', frameRate: 30 },
    });
    expect(long.probe).toMatchObject({
      kind: 'video',
      width: 64,
      height: 36,
      durationSec: 240,
      audio: null,
      video: { codec: 'h264', frameRate: 24 },
    });
    expect(hevc.contentType).toBe('video/quicktime');
    expect(hevc.probe).toMatchObject({
      kind: 'video',
      width: 320,
      height: 180,
      video: { codec: 'hevc', frameRate: 25 },
    });
    expect(png.probe).toEqual({
      kind: 'image',
      container: 'png_pipe',
      width: 640,
      height: 480,
      durationSec: null,
      bitRate: null,
      image: { format: 'png', width: 640, height: 480 },
    });
  });

  test('when a video carries a quarter-turn display rotation, then width and height are given as displayed', async () => {
    const a = await anAccount();
    const asset = await uploaded(a, files.rotatedMp4);
    expect(asset.probe).toMatchObject({ width: 180, height: 320, video: { width: 320, height: 180, rotation: 90 } });
  });

  test('when a link is imported, then the file is probed as an upload is', async () => {
    const a = await anAccount();
    origin.route('/portrait.mp4', file(await readFile(files.portraitMp4), 'video/mp4'));
    const imported = await h.bus.rpc.call(Rpc.mediaImportFromUrl, { url: `${origin.url}/portrait.mp4` }, a.principal, {
      timeoutMs: 30_000,
    });
    const asset = await h.bus.rpc.call(Rpc.mediaGet, { mediaId: imported.mediaId }, a.principal);
    expect(asset.probe).toMatchObject({ kind: 'video', width: 180, height: 320, video: { codec: 'h264' } });
  });
});

describe('files ffprobe cannot read', () => {
  test('when an upload starts like a JPEG but is not one, then 400 media_unreadable and nothing is stored', async () => {
    const a = await anAccount();
    const before = await h.storedObjects();
    const fake = Buffer.concat([aJpeg(1000).subarray(0, 20), Buffer.alloc(4000, 0x20)]);
    const up = await uploadTo(h.mediaUrl, a.apiKey, { bytes: fake });
    expect({ status: up.status, code: up.body.code, details: up.body.details }).toEqual({
      status: 400,
      code: 'media_unreadable',
      details: { reason: 'unreadable' },
    });
    expect(up.body.error).toMatch(/could not be read/);
    expect((await h.bus.rpc.call(Rpc.mediaList, {}, a.principal)).media).toEqual([]);
    expect(await h.storedObjects()).toEqual(before);
  });

  test('when an MP4 has its header but no playable stream, then media_unreadable', async () => {
    const a = await anAccount();
    const truncated = (await readFile(files.landscapeMp4)).subarray(0, 40);
    const up = await uploadTo(h.mediaUrl, a.apiKey, { bytes: truncated });
    expect({ status: up.status, code: up.body.code }).toEqual({ status: 400, code: 'media_unreadable' });
  });

  test('when an imported link is not readable, then media_unreadable and nothing is stored', async () => {
    const a = await anAccount();
    origin.route('/broken.mp4', file(Buffer.concat([anMp4(1024).subarray(0, 32), Buffer.alloc(2048, 7)]), 'video/mp4'));
    await expect(
      h.bus.rpc.call(Rpc.mediaImportFromUrl, { url: `${origin.url}/broken.mp4` }, a.principal, { timeoutMs: 30_000 }),
    ).rejects.toMatchObject({ code: 'media_unreadable' });
    expect((await h.bus.rpc.call(Rpc.mediaList, {}, a.principal)).media).toEqual([]);
  });
});

describe('the probe time limit', () => {
  let slow: MediaHarness;
  beforeAll(async () => {
    // 1 ms: no ffprobe run finishes in time
    slow = await startMediaHarness('media_probe_timeout', { MEDIA_PROBE_TIMEOUT_MS: '1' });
  });
  afterAll(() => slow?.stop());

  test('when ffprobe does not finish within MEDIA_PROBE_TIMEOUT_MS, then 400 media_unreadable (timeout) and nothing is stored', async () => {
    const account = await slow.account();
    const up = await uploadTo(slow.mediaUrl, account.apiKey, { bytes: await readFile(files.landscapeMp4) });
    expect({ status: up.status, code: up.body.code, details: up.body.details }).toEqual({
      status: 400,
      code: 'media_unreadable',
      details: { reason: 'timeout' },
    });
    expect(up.body.error).toMatch(/within 1 ms/);
    expect(await slow.storedObjects()).toEqual([]);
  });
});

describe('starting without ffprobe', () => {
  test('when FFPROBE_PATH does not run, then media refuses to start and names the variable', async () => {
    await expect(startMediaHarness('media_no_ffprobe', { FFPROBE_PATH: '/nonexistent/ffprobe' })).rejects.toThrow(
      /FFPROBE_PATH: \/nonexistent\/ffprobe does not run/,
    );
  });
});
