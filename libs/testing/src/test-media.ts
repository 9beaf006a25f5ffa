import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { testServers } from './config';

const run = promisify(execFile);

/** Real files made by ffmpeg from its test pattern, small enough to make in about a second. */
export interface TestMedia {
  dir: string;
  /** 320×180 (16:9) H.264 + AAC 48 kHz, 30 FPS, 4 s, index first. */
  landscapeMp4: string;
  /** 180×320 (9:16) H.264 + AAC 48 kHz, 30 FPS, 4 s. */
  portraitMp4: string;
  /** 64×36 H.264, 24 FPS, 240 s, no audio. */
  longMp4: string;
  /** 320×180 HEVC in a QuickTime file, 25 FPS, 2 s. */
  hevcMov: string;
  /** The landscape video stored 320×180 with a 90° display rotation: shown 180×320. */
  rotatedMp4: string;
  /** 640×480 PNG. */
  png: string;
  /** 160×90 (16:9) H.264, 12 FPS, 4 s: too few frames per second for most platforms. */
  slowMp4: string;
  /** 1100×100 (11:1) H.264, 30 FPS, 4 s: wider than any platform's aspect ratio. */
  wideMp4: string;
  remove(): Promise<void>;
}

const PATTERN = (size: string, rate: number) => ['-f', 'lavfi', '-i', `testsrc=size=${size}:rate=${rate}`];
const TONE = ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'];
const H264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];

/** Makes the files into a fresh temporary directory. */
export async function makeTestMedia(ffmpegPath = testServers.ffmpegPath): Promise<TestMedia> {
  const dir = await mkdtemp(join(tmpdir(), 'postbus-test-media-'));
  const at = (name: string) => join(dir, name);
  const ffmpeg = (args: string[]) => run(ffmpegPath, ['-v', 'error', '-nostdin', '-y', ...args]);
  const media: TestMedia = {
    dir,
    landscapeMp4: at('landscape.mp4'),
    portraitMp4: at('portrait.mp4'),
    longMp4: at('long.mp4'),
    hevcMov: at('hevc.mov'),
    rotatedMp4: at('rotated.mp4'),
    png: at('still.png'),
    slowMp4: at('slow.mp4'),
    wideMp4: at('wide.mp4'),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
  try {
    await ffmpeg([
      ...PATTERN('320x180', 30),
      ...TONE,
      '-t',
      '4',
      ...H264,
      '-c:a',
      'aac',
      '-shortest',
      '-movflags',
      '+faststart',
      media.landscapeMp4,
    ]);
    await Promise.all([
      ffmpeg([
        ...PATTERN('180x320', 30),
        ...TONE,
        '-t',
        '4',
        ...H264,
        '-c:a',
        'aac',
        '-shortest',
        '-movflags',
        '+faststart',
        media.portraitMp4,
      ]),
      ffmpeg([...PATTERN('64x36', 24), '-t', '240', ...H264, '-movflags', '+faststart', media.longMp4]),
      ffmpeg([
        ...PATTERN('320x180', 25),
        '-t',
        '2',
        '-c:v',
        'libx265',
        '-preset',
        'ultrafast',
        '-x265-params',
        'log-level=none',
        '-pix_fmt',
        'yuv420p',
        '-tag:v',
        'hvc1',
        media.hevcMov,
      ]),
      // the rotate tag becomes the file's display matrix when the stream is copied
      ffmpeg(['-i', media.landscapeMp4, '-c', 'copy', '-metadata:s:v:0', 'rotate=90', media.rotatedMp4]),
      ffmpeg(['-f', 'lavfi', '-i', 'testsrc=size=640x480', '-frames:v', '1', media.png]),
      ffmpeg([...PATTERN('160x90', 12), '-t', '4', ...H264, media.slowMp4]),
      ffmpeg([...PATTERN('1100x100', 30), '-t', '4', ...H264, media.wideMp4]),
    ]);
  } catch (err) {
    await media.remove();
    throw err;
  }
  return media;
}

/** A 16×16 JPEG (ffmpeg) and a one-frame 16×16 H.264 MP4 with its index first (ffmpeg, x264's SEI removed). */
const REAL_JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAgAAAQABAAD//gAQTGF2YzU5LjM3LjEwMAD/2wBDAAgEBAQEBAUFBQUFBQYGBgYGBgYGBgYGBgYHBwcICAgHBwcGBgcHCAgICAkJCQgICAgJCQoKCgwMCwsODg4RERT/xABMAAEBAAAAAAAAAAAAAAAAAAAABgEBAQAAAAAAAAAAAAAAAAAABgcQAQAAAAAAAAAAAAAAAAAAAAARAQAAAAAAAAAAAAAAAAAAAAD/wAARCAAQABADASIAAhEAAxEA/9oADAMBAAIRAxEAPwCLAFF/f//Z',
  'base64',
);
const REAL_MP4 = Buffer.from(
  'AAAAIGZ0eXBpc29tAAACAGlzb21pc28yYXZjMW1wNDEAAALobW9vdgAAAGxtdmhkAAAAAAAAAAAAAAAAAAAD6AAAA+gAAQAAAQAAAAAAAAAAAAAAAAEAAAAAAAAAAAAAAAAAAAABAAAAAAAAAAAAAAAAAABAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAgAAAjd0cmFrAAAAXHRraGQAAAADAAAAAAAAAAAAAAABAAAAAAAAA+gAAAAAAAAAAAAAAAAAAAAAAAEAAAAAAAAAAAAAAAAAAAABAAAAAAAAAAAAAAAAAABAAAAAABAAAAAQAAAAAAAkZWR0cwAAABxlbHN0AAAAAAAAAAEAAAPoAAAAAAABAAAAAAGvbWRpYQAAACBtZGhkAAAAAAAAAAAAAAAAAABAAAAAQABVxAAAAAAALWhkbHIAAAAAAAAAAHZpZGUAAAAAAAAAAAAAAABWaWRlb0hhbmRsZXIAAAABWm1pbmYAAAAUdm1oZAAAAAEAAAAAAAAAAAAAACRkaW5mAAAAHGRyZWYAAAAAAAAAAQAAAAx1cmwgAAAAAQAAARpzdGJsAAAAtnN0c2QAAAAAAAAAAQAAAKZhdmMxAAAAAAAAAAEAAAAAAAAAAAAAAAAAAAAAABAAEABIAAAASAAAAAAAAAABDExhdmMgbGlieDI2NAAAAAAAAAAAAAAAAAAAAAAAAAAAGP//AAAALGF2Y0MBQsAK/+EAFWdCwAraewEQAAADABAAAAMAIPEiagEABGjOD8gAAAAQcGFzcAAAAAEAAAABAAAAFGJ0cnQAAAAAAAAAcAAAAHAAAAAYc3R0cwAAAAAAAAABAAAAAQAAQAAAAAAcc3RzYwAAAAAAAAABAAAAAQAAAAEAAAABAAAAFHN0c3oAAAAAAAAADgAAAAEAAAAUc3RjbwAAAAAAAAABAAADGAAAAD11ZHRhAAAANW1ldGEAAAAAAAAAIWhkbHIAAAAAAAAAAG1kaXJhcHBsAAAAAAAAAAAAAAAACGlsc3QAAAAIZnJlZQAAABZtZGF0AAAACmWIhDomKAAJAuA=',
  'base64',
);

/** Random bytes without 0xFF, so that no JPEG marker appears inside a comment. */
function markerFree(n: number): Buffer {
  const bytes = randomBytes(n);
  for (let i = 0; i < n; i++) if (bytes[i] === 0xff) bytes[i] = 0xfe;
  return bytes;
}

/**
 * A real JPEG (ffprobe reads it, since every stored file is probed) of exactly `sizeBytes`: random
 * comment segments after its JFIF header make each one distinct.
 */
export function aJpeg(sizeBytes = 2048): Buffer {
  const APP0_END = 20;
  let fill = sizeBytes - REAL_JPEG.length;
  if (fill !== 0 && fill < 4) throw new Error(`aJpeg: ${sizeBytes} bytes is too small`);
  const comments: Buffer[] = [];
  while (fill > 0) {
    const payload = Math.min(fill - 4, 65_533);
    // the last segment must not leave fewer than 4 bytes for another
    const take = fill - (payload + 4) > 0 && fill - (payload + 4) < 4 ? payload - 4 : payload;
    comments.push(Buffer.from([0xff, 0xfe, (take + 2) >> 8, (take + 2) & 0xff]), markerFree(take));
    fill -= take + 4;
  }
  return Buffer.concat([REAL_JPEG.subarray(0, APP0_END), ...comments, REAL_JPEG.subarray(APP0_END)]);
}

/** A real MP4 (ffprobe reads it) of exactly `sizeBytes`: a random `free` box after its media data makes each one distinct. */
export function anMp4(sizeBytes = 4096): Buffer {
  const fill = sizeBytes - REAL_MP4.length;
  if (fill !== 0 && fill < 8) throw new Error(`anMp4: ${sizeBytes} bytes is too small`);
  if (fill === 0) return Buffer.from(REAL_MP4);
  const box = Buffer.alloc(8);
  box.writeUInt32BE(fill, 0);
  box.write('free', 4, 'latin1');
  return Buffer.concat([REAL_MP4, box, randomBytes(fill - 8)]);
}
