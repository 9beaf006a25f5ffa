import type { MediaProbe, Platform } from '@postbus/contracts';
import { checkMediaRules, MEDIA_RULES, mediaTargetOf, type MediaCheck, type MediaFacts } from '../src';

const MB = 1024 * 1024;

/** A video as ffprobe reports it: 1080×1920 H.264 + AAC 48 kHz, 30 FPS, 30 s, unless told otherwise. */
function aVideo(
  o: {
    width?: number;
    height?: number;
    durationSec?: number;
    frameRate?: number;
    codec?: string;
    audio?: { codec: string; sampleRate: number } | null;
    type?: string;
    sizeBytes?: number;
  } = {},
): MediaFacts {
  const width = o.width ?? 1080;
  const height = o.height ?? 1920;
  const probe: MediaProbe = {
    kind: 'video',
    container: 'mov,mp4,m4a,3gp,3g2,mj2',
    width,
    height,
    durationSec: o.durationSec ?? 30,
    bitRate: 4_000_000,
    video: {
      codec: o.codec ?? 'h264',
      profile: 'High',
      width,
      height,
      rotation: 0,
      frameRate: o.frameRate ?? 30,
      bitRate: 3_800_000,
      pixelFormat: 'yuv420p',
      colorSpace: 'bt709',
      colorTransfer: 'bt709',
      colorPrimaries: 'bt709',
    },
    audio:
      o.audio === undefined
        ? { codec: 'aac', channels: 2, sampleRate: 48_000 }
        : o.audio && { codec: o.audio.codec, channels: 2, sampleRate: o.audio.sampleRate },
  };
  return { contentType: o.type ?? 'video/mp4', sizeBytes: o.sizeBytes ?? 20 * MB, probe };
}

/** An image as ffprobe reports it: a 1080×1080 JPEG of 1 MB, unless told otherwise. */
function anImage(o: { width?: number; height?: number; type?: string; sizeBytes?: number } = {}): MediaFacts {
  const width = o.width ?? 1080;
  const height = o.height ?? 1080;
  const type = o.type ?? 'image/jpeg';
  const format =
    { 'image/jpeg': 'mjpeg', 'image/png': 'png', 'image/webp': 'webp', 'image/gif': 'gif' }[type] ?? 'mjpeg';
  return {
    contentType: type,
    sizeBytes: o.sizeBytes ?? MB,
    probe: {
      kind: 'image',
      container: `${format}_pipe`,
      width,
      height,
      durationSec: null,
      bitRate: null,
      image: { format, width, height },
    },
  };
}

const single: MediaCheck = { items: 1 };
/** The rules a media breaks on a platform, as `target:rule`. */
const broken = (platform: Platform, media: MediaFacts, check: MediaCheck = single) =>
  checkMediaRules(platform, media, check).map((b) => `${b.target ?? platform}:${b.rule}`);

describe('Instagram', () => {
  test('when a feed image is a square JPEG, then it is taken; a PNG, a 9:16 image or 9 MB are not', () => {
    expect(broken('instagram', anImage())).toEqual([]);
    expect(broken('instagram', anImage({ type: 'image/png' }))).toEqual(['instagram.feed_image:content_type']);
    expect(broken('instagram', anImage({ width: 1080, height: 1920 }))).toEqual(['instagram.feed_image:aspect_ratio']);
    expect(broken('instagram', anImage({ sizeBytes: 9 * MB }))).toEqual(['instagram.feed_image:size']);
  });

  test('when a reel is a 9:16 H.264 video of 30 s, then it is taken; too short, too long, too slow, VP9, too wide or 96 kHz audio are not', () => {
    expect(broken('instagram', aVideo())).toEqual([]);
    expect(broken('instagram', aVideo({ width: 1920, height: 1080 }))).toEqual([]);
    expect(broken('instagram', aVideo({ durationSec: 2 }))).toEqual(['instagram.reel:duration']);
    expect(broken('instagram', aVideo({ durationSec: 16 * 60 }))).toEqual(['instagram.reel:duration']);
    expect(broken('instagram', aVideo({ frameRate: 12 }))).toEqual(['instagram.reel:frame_rate']);
    expect(broken('instagram', aVideo({ codec: 'vp9', type: 'video/webm' }))).toEqual([
      'instagram.reel:content_type',
      'instagram.reel:video_codec',
    ]);
    expect(broken('instagram', aVideo({ width: 3840, height: 2160 }))).toEqual(['instagram.reel:width']);
    expect(broken('instagram', aVideo({ audio: { codec: 'aac', sampleRate: 96_000 } }))).toEqual([
      'instagram.reel:audio_sample_rate',
    ]);
    expect(broken('instagram', aVideo({ audio: { codec: 'opus', sampleRate: 48_000 } }))).toEqual([
      'instagram.reel:audio_codec',
    ]);
    expect(broken('instagram', aVideo({ width: 1100, height: 100 }))).toEqual(['instagram.reel:aspect_ratio']);
  });

  test('when a story is asked for, then a video lasts at most 60 s and an image is a JPEG', () => {
    const story: MediaCheck = { items: 1, settings: { instagram: { story: true } } };
    expect(broken('instagram', aVideo({ durationSec: 59 }), story)).toEqual([]);
    expect(broken('instagram', aVideo({ durationSec: 61 }), story)).toEqual(['instagram.story_video:duration']);
    expect(broken('instagram', anImage({ width: 1080, height: 1920 }), story)).toEqual([]);
    expect(broken('instagram', anImage({ type: 'image/png' }), story)).toEqual(['instagram.story_image:content_type']);
  });

  test('when the post has several items, then the carousel rules apply: 4:5 to 16:9 videos of 3–60 s, 4:5 to 1.91:1 images', () => {
    const carousel: MediaCheck = { items: 3 };
    expect(broken('instagram', aVideo({ width: 1080, height: 1080 }), carousel)).toEqual([]);
    expect(broken('instagram', aVideo(), carousel)).toEqual(['instagram.carousel_video:aspect_ratio']);
    expect(broken('instagram', aVideo({ width: 1080, height: 1080, durationSec: 90 }), carousel)).toEqual([
      'instagram.carousel_video:duration',
    ]);
    expect(broken('instagram', anImage({ width: 1080, height: 2160 }), carousel)).toEqual([
      'instagram.carousel_image:aspect_ratio',
    ]);
  });
});

describe('Facebook', () => {
  test('when a photo is a PNG under 4 MB, then it is taken; 5 MB is not', () => {
    expect(broken('facebook', anImage({ type: 'image/png' }))).toEqual([]);
    expect(broken('facebook', anImage({ sizeBytes: 5 * MB }))).toEqual(['facebook.photo:size']);
  });

  test('when a Page video is 16:9, then it is taken; one of 5 hours is not', () => {
    expect(broken('facebook', aVideo({ width: 1920, height: 1080 }))).toEqual([]);
    expect(broken('facebook', aVideo({ durationSec: 5 * 3600 }))).toEqual(['facebook.video:duration']);
  });

  test('when a reel is asked for, then it must be 9:16, at least 540×960, 3–90 s', () => {
    const reel: MediaCheck = { items: 1, settings: { facebook: { reel: true } } };
    expect(broken('facebook', aVideo(), reel)).toEqual([]);
    expect(broken('facebook', aVideo({ width: 540, height: 960 }), reel)).toEqual([]);
    expect(broken('facebook', aVideo({ width: 1920, height: 1080 }), reel)).toEqual(['facebook.reel:aspect_ratio']);
    expect(broken('facebook', aVideo({ width: 360, height: 640 }), reel)).toEqual([
      'facebook.reel:width',
      'facebook.reel:height',
    ]);
    expect(broken('facebook', aVideo({ durationSec: 120 }), reel)).toEqual(['facebook.reel:duration']);
  });
});

describe('Threads', () => {
  test('when an image is a PNG or a JPEG within 10:1, then it is taken; a GIF or 11:1 is not', () => {
    expect(broken('threads', anImage({ type: 'image/png', width: 1, height: 1 }))).toEqual([]);
    expect(broken('threads', anImage({ width: 1100, height: 100 }))).toEqual(['threads.image:aspect_ratio']);
    expect(broken('threads', anImage({ type: 'image/gif' }))).toEqual(['threads.image:content_type']);
  });

  test('when a video lasts 4 minutes, then it is taken; 6 minutes or WebM is not', () => {
    expect(broken('threads', aVideo({ durationSec: 240 }))).toEqual([]);
    expect(broken('threads', aVideo({ durationSec: 360 }))).toEqual(['threads.video:duration']);
    expect(broken('threads', aVideo({ type: 'video/webm' }))).toEqual(['threads.video:content_type']);
  });
});

describe('TikTok', () => {
  test('when a photo is a JPEG or WebP up to 20 MB, then it is taken; a PNG or 25 MB is not', () => {
    expect(broken('tiktok', anImage())).toEqual([]);
    expect(broken('tiktok', anImage({ type: 'image/webp' }))).toEqual([]);
    expect(broken('tiktok', anImage({ type: 'image/png' }))).toEqual(['tiktok.photo:content_type']);
    expect(broken('tiktok', anImage({ sizeBytes: 25 * MB }))).toEqual(['tiktok.photo:size']);
  });

  test('when a video is 9:16 H.264 of 30 s, then it is taken; 11 minutes, sides under 360 px or AV1 are not', () => {
    expect(broken('tiktok', aVideo())).toEqual([]);
    expect(broken('tiktok', aVideo({ durationSec: 11 * 60 }))).toEqual(['tiktok.video:duration']);
    expect(broken('tiktok', aVideo({ width: 320, height: 180 }))).toEqual([
      'tiktok.video:width',
      'tiktok.video:height',
    ]);
    expect(broken('tiktok', aVideo({ codec: 'av1' }))).toEqual(['tiktok.video:video_codec']);
  });

  test('when the creator may post at most 180 s, then a video of 240 s breaks the creator limit, one of 170 s does not', () => {
    expect(broken('tiktok', aVideo({ durationSec: 240 }), { items: 1, creatorMaxDurationSec: 180 })).toEqual([
      'tiktok.video:creator_duration',
    ]);
    expect(broken('tiktok', aVideo({ durationSec: 170 }), { items: 1, creatorMaxDurationSec: 180 })).toEqual([]);
    const [b] = checkMediaRules('tiktok', aVideo({ durationSec: 240 }), { items: 1, creatorMaxDurationSec: 180 });
    expect(b).toMatchObject({ platform: 'tiktok', rule: 'creator_duration', measured: 240, limit: { max: 180 } });
  });
});

describe('YouTube', () => {
  test('when a WebM video is posted, then it is taken; an image is not a YouTube post at all', () => {
    expect(broken('youtube', aVideo({ type: 'video/webm', codec: 'vp9', width: 1920, height: 1080 }))).toEqual([]);
    const [b] = checkMediaRules('youtube', anImage(), single);
    expect(b).toMatchObject({
      platform: 'youtube',
      rule: 'kind',
      measured: 'image',
      limit: 'video',
      message: 'YouTube takes videos only; this media is an image.',
    });
  });
});

describe('the table', () => {
  test('when a break is reported, then it names what was measured, the limit and a message a person can act on', () => {
    const [b] = checkMediaRules('instagram', aVideo({ durationSec: 2 }), single);
    expect(b).toEqual({
      platform: 'instagram',
      target: 'instagram.reel',
      rule: 'duration',
      measured: 2,
      limit: { min: 3, max: 900 },
      message: 'An Instagram reel lasts from 3 s to 900 s; this video lasts 2 s.',
    });
  });

  test('when media was stored before probing, then only its type and size are judged', () => {
    expect(broken('instagram', { contentType: 'video/mp4', sizeBytes: MB, probe: null })).toEqual([]);
    expect(broken('instagram', { contentType: 'image/png', sizeBytes: MB, probe: null })).toEqual([
      'instagram.feed_image:content_type',
    ]);
  });

  test('when every target is listed, then each cites an official page and names its platform as its key does', () => {
    for (const [target, rule] of Object.entries(MEDIA_RULES)) {
      expect(target.startsWith(`${rule.platform}.`)).toBe(true);
      expect(rule.source).toMatch(
        /^https:\/\/(developers\.facebook\.com|developers\.tiktok\.com|support\.google\.com|github\.com\/bluesky-social\/atproto|docs\.joinmastodon\.org|learn\.microsoft\.com\/en-us\/linkedin|docs\.x\.com|help\.pinterest\.com)\//,
      );
    }
    expect(mediaTargetOf('youtube', 'image', 1)).toBeUndefined();
  });
});
