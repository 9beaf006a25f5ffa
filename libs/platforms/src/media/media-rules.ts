import type { Platform } from '@postbus/contracts';
import type { MediaKind } from './media-kind';

const PINTEREST_IMAGE_TYPES = ['image/bmp', 'image/jpeg', 'image/png', 'image/tiff', 'image/gif', 'image/webp'];

/** A closed range; a missing end is unbounded. */
export interface MediaRange {
  min?: number;
  max?: number;
}

/** One shape a post takes on a platform (a reel, a story, a photo…), each with its own media rules. */
export type MediaTarget =
  | 'instagram.feed_image'
  | 'instagram.carousel_image'
  | 'instagram.carousel_video'
  | 'instagram.reel'
  | 'instagram.story_image'
  | 'instagram.story_video'
  | 'facebook.photo'
  | 'facebook.video'
  | 'facebook.reel'
  | 'threads.image'
  | 'threads.video'
  | 'tiktok.photo'
  | 'tiktok.video'
  | 'youtube.video'
  | 'bluesky.image'
  | 'bluesky.video'
  | 'mastodon.image'
  | 'mastodon.video'
  | 'linkedin.image'
  | 'linkedin.video'
  | 'x.image'
  | 'x.video'
  | 'pinterest.image'
  | 'pinterest.carousel_image'
  | 'pinterest.video';

/**
 * What a platform takes for one target, as its official page states it. Figures are checked
 * against what ffprobe read when the media was stored: width and height as displayed (rotation
 * applied), aspect ratio as width ÷ height. Limits a platform meets by scaling the file itself
 * (Instagram and Threads image widths) are not refusals and are left out.
 */
export interface MediaRule {
  platform: Platform;
  kind: MediaKind;
  /** A name people know the target by, for messages. */
  label: string;
  /** Stored content types (detected from the bytes) the target takes. */
  contentTypes: readonly string[];
  /** ffprobe codec names of the video stream. */
  videoCodecs?: readonly string[];
  /** ffprobe codec names of the audio stream, when there is one. */
  audioCodecs?: readonly string[];
  maxBytes?: number;
  aspectRatio?: MediaRange;
  width?: MediaRange;
  height?: MediaRange;
  durationSec?: MediaRange;
  frameRate?: MediaRange;
  audioSampleRate?: MediaRange;
  /** Media items in one post of this shape (the count itself is checked with PLATFORM_MEDIA_MAX). */
  items: MediaRange;
  /** The official page the figures come from. */
  source: string;
}

const MB = 1024 * 1024;
const GB = 1024 * MB;
const MP4_MOV = ['video/mp4', 'video/quicktime'] as const;
const H264_HEVC = ['h264', 'hevc'] as const;

const IG_MEDIA = 'https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media';

/** The one table of what each platform takes; posts, the sandbox and the docs read it. */
export const MEDIA_RULES: Readonly<Record<MediaTarget, MediaRule>> = {
  // Image specifications: JPEG, 8 MB, aspect ratio within 4:5 to 1.91:1 — https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media#image-specifications
  'instagram.feed_image': {
    platform: 'instagram',
    kind: 'image',
    label: 'An Instagram feed image',
    contentTypes: ['image/jpeg'],
    maxBytes: 8 * MB,
    aspectRatio: { min: 0.8, max: 1.91 },
    items: { max: 1 },
    source: IG_MEDIA,
  },
  // Carousel children follow the image specifications; 2 to 10 children — https://developers.facebook.com/docs/instagram-platform/content-publishing#carousel-posts
  'instagram.carousel_image': {
    platform: 'instagram',
    kind: 'image',
    label: 'An Instagram carousel image',
    contentTypes: ['image/jpeg'],
    maxBytes: 8 * MB,
    aspectRatio: { min: 0.8, max: 1.91 },
    items: { min: 2, max: 10 },
    source: IG_MEDIA,
  },
  // Carousel videos: MOV or MP4, H.264 or HEVC, 23–60 FPS, at most 1920 columns, 4:5 to 16:9, 3–60 s, 100 MB — https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media#video-specifications
  'instagram.carousel_video': {
    platform: 'instagram',
    kind: 'video',
    label: 'An Instagram carousel video',
    contentTypes: MP4_MOV,
    videoCodecs: H264_HEVC,
    audioCodecs: ['aac'],
    maxBytes: 100 * MB,
    aspectRatio: { min: 0.8, max: 16 / 9 },
    width: { max: 1920 },
    durationSec: { min: 3, max: 60 },
    frameRate: { min: 23, max: 60 },
    audioSampleRate: { max: 48_000 },
    items: { min: 2, max: 10 },
    source: IG_MEDIA,
  },
  // Reels specifications: MOV or MP4, HEVC or H.264, AAC at most 48 kHz, 23–60 FPS, at most 1920 columns, 0.01:1 to 10:1, 3 s–15 min, 300 MB — https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media#reels-specifications
  'instagram.reel': {
    platform: 'instagram',
    kind: 'video',
    label: 'An Instagram reel',
    contentTypes: MP4_MOV,
    videoCodecs: H264_HEVC,
    audioCodecs: ['aac'],
    maxBytes: 300 * MB,
    aspectRatio: { min: 0.01, max: 10 },
    width: { max: 1920 },
    durationSec: { min: 3, max: 15 * 60 },
    frameRate: { min: 23, max: 60 },
    audioSampleRate: { max: 48_000 },
    items: { max: 1 },
    source: IG_MEDIA,
  },
  // Story images follow the image specifications (JPEG, 8 MB); the story frame crops them, so any aspect ratio — https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media#story-image-specifications
  'instagram.story_image': {
    platform: 'instagram',
    kind: 'image',
    label: 'An Instagram story image',
    contentTypes: ['image/jpeg'],
    maxBytes: 8 * MB,
    items: { max: 1 },
    source: IG_MEDIA,
  },
  // Story videos: as reels, but 3–60 s and 100 MB — https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media#story-video-specifications
  'instagram.story_video': {
    platform: 'instagram',
    kind: 'video',
    label: 'An Instagram story video',
    contentTypes: MP4_MOV,
    videoCodecs: H264_HEVC,
    audioCodecs: ['aac'],
    maxBytes: 100 * MB,
    aspectRatio: { min: 0.01, max: 10 },
    width: { max: 1920 },
    durationSec: { min: 3, max: 60 },
    frameRate: { min: 23, max: 60 },
    audioSampleRate: { max: 48_000 },
    items: { max: 1 },
    source: IG_MEDIA,
  },
  // Page photos: "less than 4MB", JPG, PNG, GIF, TIFF, HEIF or WebP — https://developers.facebook.com/docs/graph-api/reference/page/photos/#requirements
  'facebook.photo': {
    platform: 'facebook',
    kind: 'image',
    label: 'A Facebook photo',
    contentTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
    maxBytes: 4 * MB,
    items: { max: 10 },
    source: 'https://developers.facebook.com/docs/graph-api/reference/page/photos/',
  },
  // Page videos: up to 10 GB and 4 hours; MP4 and MOV recommended, WebM among the accepted formats — https://developers.facebook.com/docs/video-api/guides/publishing
  'facebook.video': {
    platform: 'facebook',
    kind: 'video',
    label: 'A Facebook video',
    contentTypes: [...MP4_MOV, 'video/webm'],
    maxBytes: 10 * GB,
    durationSec: { max: 4 * 3600 },
    items: { max: 1 },
    source: 'https://developers.facebook.com/docs/video-api/guides/publishing',
  },
  // Reels: 9:16, at least 540×960, 24–60 FPS, 3–90 s, H.264/H.265/VP9/AV1, AAC 48 kHz — https://developers.facebook.com/docs/video-api/guides/reels-publishing#requirements
  'facebook.reel': {
    platform: 'facebook',
    kind: 'video',
    label: 'A Facebook reel',
    contentTypes: [...MP4_MOV, 'video/webm'],
    videoCodecs: [...H264_HEVC, 'vp9', 'av1'],
    audioCodecs: ['aac'],
    // 9:16 with the rounding of real encodes (1080×1920, 720×1280, 544×960…)
    aspectRatio: { min: 0.55, max: 0.58 },
    width: { min: 540 },
    height: { min: 960 },
    durationSec: { min: 3, max: 90 },
    frameRate: { min: 24, max: 60 },
    audioSampleRate: { min: 48_000, max: 48_000 },
    items: { max: 1 },
    source: 'https://developers.facebook.com/docs/video-api/guides/reels-publishing',
  },
  // Image specifications: JPEG or PNG, 8 MB, aspect ratio at most 10:1 — https://developers.facebook.com/docs/threads/overview#image-specifications
  'threads.image': {
    platform: 'threads',
    kind: 'image',
    label: 'A Threads image',
    contentTypes: ['image/jpeg', 'image/png'],
    maxBytes: 8 * MB,
    aspectRatio: { min: 0.1, max: 10 },
    items: { max: 20 },
    source: 'https://developers.facebook.com/docs/threads/overview#image-specifications',
  },
  // Video specifications: MOV or MP4, HEVC or H.264, AAC at most 48 kHz, 23–60 FPS, at most 1920 columns, 0.01:1 to 10:1, at most 5 min, 1 GB — https://developers.facebook.com/docs/threads/overview#video-specifications
  'threads.video': {
    platform: 'threads',
    kind: 'video',
    label: 'A Threads video',
    contentTypes: MP4_MOV,
    videoCodecs: H264_HEVC,
    audioCodecs: ['aac'],
    maxBytes: 1 * GB,
    aspectRatio: { min: 0.01, max: 10 },
    width: { max: 1920 },
    durationSec: { max: 300 },
    frameRate: { min: 23, max: 60 },
    audioSampleRate: { max: 48_000 },
    items: { max: 20 },
    source: 'https://developers.facebook.com/docs/threads/overview#video-specifications',
  },
  // Image restrictions: JPEG or WebP (PNG is refused), at most 20 MB; 35 photos per post — https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide#image_restrictions
  'tiktok.photo': {
    platform: 'tiktok',
    kind: 'image',
    label: 'A TikTok photo',
    contentTypes: ['image/jpeg', 'image/webp'],
    maxBytes: 20 * MB,
    items: { max: 35 },
    source: 'https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide',
  },
  // Video restrictions: MP4, WebM or MOV; H.264, H.265, VP8 or VP9; 23–60 FPS; each side 360–4096 px; at most 4 GB and 10 min,
  // and at most the creator's max_video_post_duration_sec (creator_info) — https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide#video_restrictions
  'tiktok.video': {
    platform: 'tiktok',
    kind: 'video',
    label: 'A TikTok video',
    contentTypes: [...MP4_MOV, 'video/webm'],
    videoCodecs: [...H264_HEVC, 'vp8', 'vp9'],
    maxBytes: 4 * GB,
    width: { min: 360, max: 4096 },
    height: { min: 360, max: 4096 },
    durationSec: { max: 600 },
    frameRate: { min: 23, max: 60 },
    items: { max: 1 },
    source: 'https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide',
  },
  // Uploads: MOV, MP4 and WebM among the supported formats; at most 256 GB or 12 hours — https://support.google.com/youtube/answer/4603579, https://support.google.com/youtube/answer/71673
  'youtube.video': {
    platform: 'youtube',
    kind: 'video',
    label: 'A YouTube video',
    contentTypes: [...MP4_MOV, 'video/webm'],
    maxBytes: 256 * GB,
    durationSec: { max: 12 * 3600 },
    items: { max: 1 },
    source: 'https://support.google.com/youtube/answer/4603579',
  },
  // app.bsky.embed.images: up to 4 images, each blob at most 1,000,000 bytes (decimal) — https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/embed/images.json
  'bluesky.image': {
    platform: 'bluesky',
    kind: 'image',
    label: 'A Bluesky image',
    contentTypes: ['image/jpeg', 'image/png', 'image/webp'],
    maxBytes: 1_000_000,
    items: { max: 4 },
    source: 'https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/embed/images.json',
  },
  // app.bsky.embed.video: one MP4 blob of at most 100,000,000 bytes — https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/embed/video.json;
  // at most 3 minutes — https://bsky.social/about/blog/09-11-2024-video (raised from 60 s in March 2025, app 1.99)
  'bluesky.video': {
    platform: 'bluesky',
    kind: 'video',
    label: 'A Bluesky video',
    contentTypes: ['video/mp4'],
    maxBytes: 100_000_000,
    durationSec: { max: 180 },
    items: { max: 1 },
    source: 'https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/embed/video.json',
  },
  // Mastodon by default: up to 4 attachments; images (JPEG, PNG, GIF, WebP, HEIC, AVIF) up to 16 MB, videos (MP4, MOV, WebM) up to 99 MB — https://docs.joinmastodon.org/user/posting/#attachments
  // (an instance may set other figures: the publisher checks its own at publish, https://docs.joinmastodon.org/entities/Instance/#media_attachments)
  'mastodon.image': {
    platform: 'mastodon',
    kind: 'image',
    label: 'A Mastodon image',
    contentTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/heic', 'image/avif'],
    maxBytes: 16_777_216,
    items: { max: 4 },
    source: 'https://docs.joinmastodon.org/user/posting/#attachments',
  },
  'mastodon.video': {
    platform: 'mastodon',
    kind: 'video',
    label: 'A Mastodon video',
    contentTypes: [...MP4_MOV, 'video/webm'],
    maxBytes: 103_809_024,
    items: { max: 4 },
    source: 'https://docs.joinmastodon.org/user/posting/#attachments',
  },
  // LinkedIn images: JPG, GIF, PNG, one or 2–20 in a multiImage post — https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/images-api
  'linkedin.image': {
    platform: 'linkedin',
    kind: 'image',
    label: 'A LinkedIn image',
    contentTypes: ['image/jpeg', 'image/png', 'image/gif'],
    items: { max: 20 },
    source: 'https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/images-api',
  },
  // LinkedIn videos: one MP4 of 75 KB to 500 MB, 3 seconds to 30 minutes — https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/videos-api
  'linkedin.video': {
    platform: 'linkedin',
    kind: 'video',
    label: 'A LinkedIn video',
    contentTypes: ['video/mp4'],
    maxBytes: 500 * MB,
    durationSec: { min: 3, max: 1800 },
    items: { max: 1 },
    source: 'https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/videos-api',
  },
  // X: up to 4 images (JPEG, PNG, WebP up to 5 MB; GIF up to 15 MB, which the publisher tells apart) or one video
  // (MP4/MOV, H.264 with AAC, up to 512 MB and 140 s, 1:3 to 3:1, at most 60 fps) — https://docs.x.com/x-api/media/quickstart/best-practices
  'x.image': {
    platform: 'x',
    kind: 'image',
    label: 'An X image',
    contentTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
    maxBytes: 15 * MB,
    items: { max: 4 },
    source: 'https://docs.x.com/x-api/media/quickstart/best-practices',
  },
  'x.video': {
    platform: 'x',
    kind: 'video',
    label: 'An X video',
    contentTypes: MP4_MOV,
    videoCodecs: ['h264'],
    audioCodecs: ['aac'],
    maxBytes: 512 * MB,
    durationSec: { min: 0.5, max: 140 },
    aspectRatio: { min: 1 / 3, max: 3 },
    frameRate: { max: 60 },
    items: { max: 1 },
    source: 'https://docs.x.com/x-api/media/quickstart/best-practices',
  },
  // Pinterest: images BMP, JPEG, PNG, TIFF, GIF or WebP up to 20 MB; a carousel 2–5 of them; videos MP4, M4V or MOV of
  // 4 s to 15 min up to 2 GB — https://help.pinterest.com/en/business/article/pinterest-product-specs (the API: https://developers.pinterest.com/docs/api/v5/pins-create)
  'pinterest.image': {
    platform: 'pinterest',
    kind: 'image',
    label: 'A Pinterest image pin',
    contentTypes: PINTEREST_IMAGE_TYPES,
    maxBytes: 20 * 1024 * 1024,
    items: { max: 1 },
    source: 'https://help.pinterest.com/en/business/article/pinterest-product-specs',
  },
  'pinterest.carousel_image': {
    platform: 'pinterest',
    kind: 'image',
    label: 'A Pinterest carousel image',
    contentTypes: PINTEREST_IMAGE_TYPES,
    maxBytes: 20 * 1024 * 1024,
    items: { min: 2, max: 5 },
    source: 'https://help.pinterest.com/en/business/article/pinterest-product-specs',
  },
  'pinterest.video': {
    platform: 'pinterest',
    kind: 'video',
    label: 'A Pinterest video pin',
    contentTypes: [...MP4_MOV, 'video/x-m4v'],
    maxBytes: 2 * 1024 * 1024 * 1024,
    durationSec: { min: 4, max: 900 },
    items: { max: 1 },
    source: 'https://help.pinterest.com/en/business/article/pinterest-product-specs',
  },
};

/** The post settings that pick a target (platformMeta). */
export interface TargetSettings {
  instagram?: { story?: boolean };
  facebook?: { reel?: boolean };
}

/**
 * The target a post's media meets on a platform: Instagram publishes a single video as a reel,
 * several items as a carousel and `story` as a story; Facebook a video as a reel when `reel`
 * is set. Undefined when the platform takes no media of that kind (a YouTube image).
 */
export function mediaTargetOf(
  platform: Platform,
  kind: MediaKind,
  items: number,
  settings: TargetSettings = {},
): MediaTarget | undefined {
  switch (platform) {
    case 'instagram':
      if (settings.instagram?.story) return kind === 'video' ? 'instagram.story_video' : 'instagram.story_image';
      if (items > 1) return kind === 'video' ? 'instagram.carousel_video' : 'instagram.carousel_image';
      return kind === 'video' ? 'instagram.reel' : 'instagram.feed_image';
    case 'facebook':
      if (kind === 'image') return 'facebook.photo';
      return settings.facebook?.reel ? 'facebook.reel' : 'facebook.video';
    case 'threads':
      return kind === 'video' ? 'threads.video' : 'threads.image';
    case 'tiktok':
      return kind === 'video' ? 'tiktok.video' : 'tiktok.photo';
    case 'youtube':
      return kind === 'video' ? 'youtube.video' : undefined;
    case 'bluesky':
      return kind === 'video' ? 'bluesky.video' : 'bluesky.image';
    case 'mastodon':
      return kind === 'video' ? 'mastodon.video' : 'mastodon.image';
    case 'linkedin':
      return kind === 'video' ? 'linkedin.video' : 'linkedin.image';
    case 'x':
      return kind === 'video' ? 'x.video' : 'x.image';
    case 'pinterest':
      if (kind === 'video') return 'pinterest.video';
      return items > 1 ? 'pinterest.carousel_image' : 'pinterest.image';
  }
}
