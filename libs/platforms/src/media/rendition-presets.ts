import type { MediaRuleBreak, MediaRuleName } from './check-media-rules';
import { MEDIA_RULES, type MediaTarget } from './media-rules';

/**
 * Rules a rendition can bring a media within: its container, codecs, frame size and shape,
 * frame rate, audio and size are all made anew. Duration only shrinks, and only when the post
 * asked for it (`trim`); a video too short, or an image where only videos are taken, stays refused.
 */
const FIXABLE: ReadonlySet<MediaRuleName> = new Set([
  'content_type',
  'size',
  'aspect_ratio',
  'width',
  'height',
  'frame_rate',
  'video_codec',
  'audio_codec',
  'audio_sample_rate',
]);

/** Whether a rendition for the break's target would not break this rule. */
export function fixableByRendition(b: MediaRuleBreak, opts: { trim: boolean }): boolean {
  if (!b.target) return false;
  if (FIXABLE.has(b.rule)) return true;
  if (b.rule !== 'duration' && b.rule !== 'creator_duration') return false;
  const limit = b.limit as { min?: number; max?: number };
  const tooLong = limit.max !== undefined && typeof b.measured === 'number' && b.measured > limit.max;
  return (
    opts.trim &&
    tooLong &&
    (b.rule === 'creator_duration' || !(limit.min !== undefined && (b.measured as number) < limit.min))
  );
}

/** A rendition preset: the target's name, `+trim` when the video is cut to the target's longest duration. */
export function renditionPreset(target: MediaTarget, opts: { trim: boolean; maxDurationSec?: number }): string {
  if (!opts.trim) return target;
  return opts.maxDurationSec !== undefined ? `${target}+trim${Math.floor(opts.maxDurationSec)}` : `${target}+trim`;
}

export interface ParsedPreset {
  target: MediaTarget;
  /** Longest duration kept, in seconds, when the preset trims. */
  trimToSec?: number;
  /** A cover frame (`+cover<ms>`): one JPEG of the video at this offset, fitted to the target's frame, instead of the video. */
  coverAtMs?: number;
}

/** The target and trim (or cover frame) a preset names; undefined when it names no known target. */
export function parseRenditionPreset(preset: string): ParsedPreset | undefined {
  const m = /^([a-z]+\.[a-z_]+)(?:\+trim(\d+)?)?(?:\+cover(\d+))?$/.exec(preset);
  if (!m || !Object.hasOwn(MEDIA_RULES, m[1])) return undefined;
  const target = m[1] as MediaTarget;
  if (m[3] !== undefined) return { target, coverAtMs: Number(m[3]) };
  const trimmed = preset.includes('+trim');
  if (!trimmed) return { target };
  return { target, trimToSec: m[2] !== undefined ? Number(m[2]) : MEDIA_RULES[target].durationSec?.max };
}

/** What a rendition for the target is stored as: an MP4 for videos, a JPEG for images. */
export function renditionContentType(target: MediaTarget): 'video/mp4' | 'image/jpeg' {
  return MEDIA_RULES[target].kind === 'video' ? 'video/mp4' : 'image/jpeg';
}
