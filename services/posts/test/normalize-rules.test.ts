import type { MediaProbe } from '@postbus/contracts';
import { normalizeOptionOf, renditionsNeeded } from '../src/renditions/normalize.rules';

const video = (over: Partial<MediaProbe> = {}): MediaProbe => ({
  kind: 'video',
  container: 'mov,mp4,m4a,3gp,3g2,mj2',
  width: 1920,
  height: 1080,
  durationSec: 30,
  bitRate: 5_000_000,
  video: {
    codec: 'h264',
    profile: 'High',
    width: 1920,
    height: 1080,
    rotation: 0,
    frameRate: 30,
    bitRate: null,
    pixelFormat: 'yuv420p',
    colorSpace: null,
    colorTransfer: null,
    colorPrimaries: null,
  },
  audio: { codec: 'aac', channels: 2, sampleRate: 48_000 },
  ...over,
});
const stored = (probe: MediaProbe, contentType = 'video/mp4') => [
  { field: 'mediaId', url: 'http://x/files/med_1', contentType, sizeBytes: 5_000_000, probe },
];

describe('which platforms get a rendition', () => {
  test("when normalize is given for the post and per platform, then the platform's own setting wins, and false turns it off", () => {
    expect(normalizeOptionOf({ normalize: true }, 'facebook')).toEqual({ trim: false });
    expect(
      normalizeOptionOf({ normalize: true, platformMeta: { facebook: { normalize: false } } }, 'facebook'),
    ).toBeUndefined();
    expect(normalizeOptionOf({ platformMeta: { facebook: { normalize: { trim: true } } } }, 'facebook')).toEqual({
      trim: true,
    });
    expect(normalizeOptionOf({ platformMeta: { facebook: { normalize: true } } }, 'instagram')).toBeUndefined();
  });

  test('when a 16:9 video goes to a Facebook reel and to Threads with normalize, then only the reel needs a rendition (Threads takes it as it is)', () => {
    const needs = renditionsNeeded(['facebook', 'threads'], stored(video()), {
      normalize: true,
      platformMeta: { facebook: { reel: true } },
    });
    expect([...needs]).toEqual([['facebook', { preset: 'facebook.reel', contentType: 'video/mp4' }]]);
  });

  test('when a video is too long, then trim makes a +trim rendition; without trim, or when it is too short, none is planned (the create refuses it)', () => {
    const long = stored(video({ width: 1080, height: 1920, durationSec: 120 }));
    expect(
      renditionsNeeded(['instagram'], long, {
        normalize: { trim: true },
        platformMeta: { instagram: { story: true } },
      }).get('instagram'),
    ).toEqual({ preset: 'instagram.story_video+trim', contentType: 'video/mp4' });
    expect(
      renditionsNeeded(['instagram'], long, { normalize: true, platformMeta: { instagram: { story: true } } }).size,
    ).toBe(0);
    expect(
      renditionsNeeded(['facebook'], stored(video({ durationSec: 2 })), {
        normalize: { trim: true },
        platformMeta: { facebook: { reel: true } },
      }).size,
    ).toBe(0);
  });

  test('when a PNG goes to the Instagram feed with normalize, then a JPEG rendition is planned; an image for YouTube gets none', () => {
    const png: MediaProbe = {
      kind: 'image',
      container: 'png_pipe',
      width: 640,
      height: 480,
      durationSec: null,
      bitRate: null,
      image: { format: 'png', width: 640, height: 480 },
    };
    expect(renditionsNeeded(['instagram', 'youtube'], stored(png, 'image/png'), { normalize: true })).toEqual(
      new Map([['instagram', { preset: 'instagram.feed_image', contentType: 'image/jpeg' }]]),
    );
  });
});
