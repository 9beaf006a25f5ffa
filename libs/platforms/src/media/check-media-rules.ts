import type { MediaProbe, Platform } from '@postbus/contracts';
import type { MediaKind } from './media-kind';
import { MEDIA_RULES, mediaTargetOf, type MediaTarget, type MediaRange, type TargetSettings } from './media-rules';

/** What Postbus knows of a stored media: its detected type, its size, and ffprobe's figures (null for media stored before probing). */
export interface MediaFacts {
  contentType: string;
  sizeBytes: number;
  probe: MediaProbe | null;
}

export type MediaRuleName =
  | 'kind'
  | 'content_type'
  | 'size'
  | 'aspect_ratio'
  | 'width'
  | 'height'
  | 'duration'
  | 'creator_duration'
  | 'frame_rate'
  | 'video_codec'
  | 'audio_codec'
  | 'audio_sample_rate';

/** One rule a media breaks on one platform: what was measured against what the platform takes. */
export interface MediaRuleBreak {
  platform: Platform;
  /** Undefined when the platform takes no media of this kind at all. */
  target?: MediaTarget;
  rule: MediaRuleName;
  measured: number | string;
  limit: MediaRange | readonly string[] | string;
  message: string;
}

export interface MediaCheck {
  /** Media items in the post, this one included: it picks a carousel over a single post. */
  items: number;
  settings?: TargetSettings;
  /** TikTok: the longest video the creator may post (creator_info's max_video_post_duration_sec). */
  creatorMaxDurationSec?: number | null;
}

/** Every rule of the platform's target that the media breaks; empty when the platform takes it. */
export function checkMediaRules(platform: Platform, media: MediaFacts, check: MediaCheck): MediaRuleBreak[] {
  const kind = kindOf(media);
  const target = mediaTargetOf(platform, kind, check.items, check.settings);
  if (!target) {
    return [
      {
        platform,
        rule: 'kind',
        measured: kind,
        limit: 'video',
        message: `${NAMES[platform]} takes videos only; this media is ${article(kind)} ${kind}.`,
      },
    ];
  }
  const rule = MEDIA_RULES[target];
  const breaks: MediaRuleBreak[] = [];
  const add: AddBreak = (name, measured, limit, message) =>
    breaks.push({ platform, target, rule: name, measured, limit, message: `${rule.label} ${message}` });

  checkFile(media, rule, add);
  const probe = media.probe;
  if (!probe) return breaks;
  checkFrame(probe, rule, add);
  const creatorMax = platform === 'tiktok' && kind === 'video' ? check.creatorMaxDurationSec : undefined;
  checkDuration(probe, rule, creatorMax, add);
  checkStreams(probe, rule, add);
  return breaks;
}

type Rule = (typeof MEDIA_RULES)[MediaTarget];
type AddBreak = (
  name: MediaRuleName,
  measured: number | string,
  limit: MediaRuleBreak['limit'],
  message: string,
) => void;

/** The stored type and size. */
function checkFile(media: MediaFacts, rule: Rule, add: AddBreak): void {
  const type = media.contentType.split(';')[0].trim().toLowerCase();
  if (!rule.contentTypes.includes(type))
    add(
      'content_type',
      type,
      rule.contentTypes,
      `must be ${rule.contentTypes.map(typeName).join(' or ')}; this media is ${typeName(type)}.`,
    );
  if (rule.maxBytes !== undefined && media.sizeBytes > rule.maxBytes)
    add(
      'size',
      media.sizeBytes,
      { max: rule.maxBytes },
      `holds at most ${megabytes(rule.maxBytes)}; this media is ${megabytes(media.sizeBytes)}.`,
    );
}

/** Aspect ratio, width and height, as displayed. */
function checkFrame(probe: MediaProbe, rule: Rule, add: AddBreak): void {
  const ratio = Math.round((probe.width / probe.height) * 1000) / 1000;
  if (outside(ratio, rule.aspectRatio))
    add(
      'aspect_ratio',
      ratio,
      rule.aspectRatio!,
      `needs an aspect ratio (width ÷ height) ${rangeText(rule.aspectRatio!)}; this media is ${probe.width}×${probe.height} (${ratio}).`,
    );
  if (outside(probe.width, rule.width))
    add(
      'width',
      probe.width,
      rule.width!,
      `needs a width ${rangeText(rule.width!, ' px')}; this media is ${probe.width} px wide.`,
    );
  if (outside(probe.height, rule.height))
    add(
      'height',
      probe.height,
      rule.height!,
      `needs a height ${rangeText(rule.height!, ' px')}; this media is ${probe.height} px high.`,
    );
}

/** The target's duration range, then the creator's own limit where the platform sets one. */
function checkDuration(probe: MediaProbe, rule: Rule, creatorMax: number | null | undefined, add: AddBreak): void {
  if (probe.durationSec !== null && outside(probe.durationSec, rule.durationSec)) {
    add(
      'duration',
      probe.durationSec,
      rule.durationSec!,
      `lasts ${rangeText(rule.durationSec!, ' s')}; this video lasts ${probe.durationSec} s.`,
    );
  }
  if (creatorMax && probe.durationSec !== null && probe.durationSec > creatorMax) {
    add(
      'creator_duration',
      probe.durationSec,
      { max: creatorMax },
      `on this account lasts at most ${creatorMax} s (the creator's limit on TikTok); this video lasts ${probe.durationSec} s.`,
    );
  }
}

/** Frame rate and codec of the video stream, codec and sample rate of the audio stream. */
function checkStreams(probe: MediaProbe, rule: Rule, add: AddBreak): void {
  const video = probe.video;
  if (video) {
    if (video.frameRate !== null && outside(video.frameRate, rule.frameRate))
      add(
        'frame_rate',
        video.frameRate,
        rule.frameRate!,
        `needs ${rangeText(rule.frameRate!, ' FPS')}; this video has ${video.frameRate} FPS.`,
      );
    if (rule.videoCodecs && !rule.videoCodecs.includes(video.codec))
      add(
        'video_codec',
        video.codec,
        rule.videoCodecs,
        `must be encoded as ${rule.videoCodecs.map(codecName).join(', ')}; this video is ${codecName(video.codec)}.`,
      );
  }
  const audio = probe.audio;
  if (audio) {
    if (rule.audioCodecs && !rule.audioCodecs.includes(audio.codec))
      add(
        'audio_codec',
        audio.codec,
        rule.audioCodecs,
        `needs ${rule.audioCodecs.map(codecName).join(' or ')} audio; this video has ${codecName(audio.codec)}.`,
      );
    if (audio.sampleRate !== null && outside(audio.sampleRate, rule.audioSampleRate))
      add(
        'audio_sample_rate',
        audio.sampleRate,
        rule.audioSampleRate!,
        `needs audio ${rangeText(rule.audioSampleRate!, ' Hz')}; this video has ${audio.sampleRate} Hz.`,
      );
  }
}

/** Image or video: ffprobe's answer when there is one, else the stored type. */
function kindOf(media: MediaFacts): MediaKind {
  return media.probe?.kind ?? (media.contentType.toLowerCase().startsWith('video/') ? 'video' : 'image');
}

function outside(value: number, range: MediaRange | undefined): boolean {
  return !!range && ((range.min !== undefined && value < range.min) || (range.max !== undefined && value > range.max));
}

function rangeText(range: MediaRange, unit = ''): string {
  const n = (v: number) => `${Math.round(v * 1000) / 1000}${unit}`;
  if (range.min !== undefined && range.max !== undefined) return `from ${n(range.min)} to ${n(range.max)}`;
  return range.min !== undefined ? `of at least ${n(range.min)}` : `of at most ${n(range.max!)}`;
}

const NAMES: Record<Platform, string> = {
  instagram: 'Instagram',
  threads: 'Threads',
  facebook: 'Facebook',
  tiktok: 'TikTok',
  youtube: 'YouTube',
  bluesky: 'Bluesky',
  mastodon: 'Mastodon',
  linkedin: 'LinkedIn',
  x: 'X',
  pinterest: 'Pinterest',
};
const TYPE_NAMES: Record<string, string> = {
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/gif': 'GIF',
  'image/webp': 'WebP',
  'image/heic': 'HEIC',
  'video/mp4': 'MP4',
  'video/quicktime': 'MOV',
  'video/webm': 'WebM',
};
const CODEC_NAMES: Record<string, string> = {
  h264: 'H.264',
  hevc: 'HEVC (H.265)',
  vp8: 'VP8',
  vp9: 'VP9',
  av1: 'AV1',
  aac: 'AAC',
  opus: 'Opus',
  vorbis: 'Vorbis',
  mp3: 'MP3',
};

function typeName(type: string): string {
  return TYPE_NAMES[type] ?? type;
}

function codecName(codec: string): string {
  return CODEC_NAMES[codec] ?? codec;
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}
