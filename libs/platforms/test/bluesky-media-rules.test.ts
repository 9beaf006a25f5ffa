import type { MediaProbe } from '@postbus/contracts';
import { checkMediaRules, type MediaFacts } from '../src';

function aVideo(durationSec: number, sizeBytes: number, type = 'video/mp4'): MediaFacts {
  const probe: MediaProbe = {
    kind: 'video',
    container: 'mov,mp4,m4a,3gp,3g2,mj2',
    width: 1080,
    height: 1920,
    durationSec,
    bitRate: 4_000_000,
    video: {
      codec: 'h264',
      profile: 'High',
      width: 1080,
      height: 1920,
      rotation: 0,
      frameRate: 30,
      bitRate: 3_800_000,
      pixelFormat: 'yuv420p',
      colorSpace: 'bt709',
      colorTransfer: 'bt709',
      colorPrimaries: 'bt709',
    },
    audio: { codec: 'aac', channels: 2, sampleRate: 48_000 },
  };
  return { contentType: type, sizeBytes, probe };
}

function anImage(type: string, sizeBytes: number): MediaFacts {
  const format =
    { 'image/jpeg': 'mjpeg', 'image/png': 'png', 'image/webp': 'webp', 'image/gif': 'gif' }[type] ?? 'mjpeg';
  return {
    contentType: type,
    sizeBytes,
    probe: {
      kind: 'image',
      container: `${format}_pipe`,
      width: 1200,
      height: 800,
      durationSec: null,
      bitRate: null,
      image: { format, width: 1200, height: 800 },
    },
  };
}

const broken = (media: MediaFacts, items = 1) =>
  checkMediaRules('bluesky', media, { items }).map((b) => `${b.target}:${b.rule}`);

describe('Bluesky media rules', () => {
  test('when images are JPEG, PNG or WebP of at most 1,000,000 bytes, then they are taken; a GIF or 1,000,001 bytes are not', () => {
    expect(broken(anImage('image/jpeg', 1_000_000), 4)).toEqual([]);
    expect(broken(anImage('image/png', 500_000))).toEqual([]);
    expect(broken(anImage('image/webp', 500_000))).toEqual([]);
    expect(broken(anImage('image/gif', 500_000))).toEqual(['bluesky.image:content_type']);
    expect(broken(anImage('image/jpeg', 1_000_001))).toEqual(['bluesky.image:size']);
  });

  test('when a video is an MP4 of at most 100,000,000 bytes and 3 minutes, then it is taken; longer, larger or a MOV is not', () => {
    expect(broken(aVideo(180, 100_000_000))).toEqual([]);
    expect(broken(aVideo(181, 1_000_000))).toEqual(['bluesky.video:duration']);
    expect(broken(aVideo(30, 100_000_001))).toEqual(['bluesky.video:size']);
    expect(broken(aVideo(30, 1_000_000, 'video/quicktime'))).toEqual(['bluesky.video:content_type']);
  });
});
