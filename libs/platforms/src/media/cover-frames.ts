import type { MediaProbe } from '@postbus/contracts';
import type { MediaTarget } from './media-rules';

/**
 * How a platform takes a video's cover (the still shown before it plays): an image of its own,
 * or only an offset into the video, from which the platform picks the frame itself.
 */
export type CoverRule =
  | {
      how: 'image';
      /** The request field the image goes in, for messages and docs. */
      field: string;
      contentTypes: readonly string[];
      maxBytes: number;
      /** The longest side a cover made by Postbus gets (well under maxBytes as a JPEG). */
      longSideMax: number;
      source: string;
    }
  | { how: 'offset'; field: string; source: string };

const MB = 1024 * 1024;

/**
 * The video targets whose cover Postbus can set. Targets not named here take no cover through
 * their API (Threads, Bluesky, stories, carousel items) or are not covered yet.
 */
export const COVER_RULES: Readonly<Partial<Record<MediaTarget, CoverRule>>> = {
  // cover_url: "the image must conform to the specifications for a Reels cover photo": JPEG, at most 8 MB — https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media#reels-cover-photo-specifications
  'instagram.reel': {
    how: 'image',
    field: 'cover_url',
    contentTypes: ['image/jpeg'],
    maxBytes: 8 * MB,
    longSideMax: 1920,
    source:
      'https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media#reels-cover-photo-specifications',
  },
  // thumbnails.set: image/jpeg or image/png, at most 2 MB; 1280×720 is the size YouTube recommends — https://developers.google.com/youtube/v3/docs/thumbnails/set
  'youtube.video': {
    how: 'image',
    field: 'thumbnails.set',
    contentTypes: ['image/jpeg', 'image/png'],
    maxBytes: 2 * MB,
    longSideMax: 1280,
    source: 'https://developers.google.com/youtube/v3/docs/thumbnails/set',
  },
  // thumb on POST /{page-id}/videos: an image file (BMP, GIF, JPEG, PNG, TIFF) of at most 10 MB — https://developers.facebook.com/docs/graph-api/reference/page/videos/#Creating, https://developers.facebook.com/docs/graph-api/reference/video/thumbnails/
  'facebook.video': {
    how: 'image',
    field: 'thumb',
    contentTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/bmp', 'image/tiff'],
    maxBytes: 10 * MB,
    longSideMax: 1280,
    source: 'https://developers.facebook.com/docs/graph-api/reference/page/videos/#Creating',
  },
  // thumbnail on POST /api/v2/media: an image within the instance's image size limit (16 MB by default) — https://docs.joinmastodon.org/methods/media/#v2
  'mastodon.video': {
    how: 'image',
    field: 'thumbnail',
    contentTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
    maxBytes: 16 * MB,
    longSideMax: 1280,
    source: 'https://docs.joinmastodon.org/methods/media/#v2',
  },
  // post_info.video_cover_timestamp_ms: TikTok takes a frame offset only — https://developers.tiktok.com/doc/content-posting-api-reference-direct-post
  'tiktok.video': {
    how: 'offset',
    field: 'video_cover_timestamp_ms',
    source: 'https://developers.tiktok.com/doc/content-posting-api-reference-direct-post',
  },
};

/** Where in the video a cover is taken when the post names no offset: a tenth of the way in, past fade-ins and black first frames. */
export const DEFAULT_COVER_FRACTION = 0.1;

/**
 * The offset, in whole milliseconds, of the frame a cover is made from: the one the post asks
 * for, else DEFAULT_COVER_FRACTION of the video. Undefined when the asked offset is not inside
 * the video (the platform's own check refuses it, as Instagram's thumb_offset does).
 */
export function coverOffsetMs(probe: Pick<MediaProbe, 'durationSec'>, askedMs: number | undefined): number | undefined {
  const durationMs = probe.durationSec !== null ? Math.floor(probe.durationSec * 1000) : null;
  if (askedMs !== undefined) return durationMs === null || askedMs < durationMs ? askedMs : undefined;
  return durationMs === null ? 0 : Math.floor(durationMs * DEFAULT_COVER_FRACTION);
}

/** The preset of a cover frame made for a target at an offset: the same source, target and offset give the same cover. */
export function coverPreset(target: MediaTarget, offsetMs: number): string {
  return `${target}+cover${Math.floor(offsetMs)}`;
}
