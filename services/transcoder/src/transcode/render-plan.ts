import type { MediaProbe } from '@postbus/contracts';
import { COVER_RULES, MEDIA_RULES, type MediaRange, type ParsedPreset } from '@postbus/platforms';

/** How a rendition is encoded, beside what the target's rules ask. */
export interface EncodeSettings {
  /** ffmpeg `-threads`: the cores one job may take. */
  threads: number;
  /** x264 speed preset (ultrafast … veryslow): CPU spent against bytes saved. */
  x264Preset: string;
  /** Highest video bit rate of a rendition, bits per second; lower still when the target caps the file's size. */
  maxVideoBitRate: number;
}

export interface RenderPlan {
  /** ffmpeg's arguments before the input (a cover frame seeks there). */
  inputArgs?: string[];
  /** ffmpeg's arguments between the input and the output file. */
  args: string[];
  /** Seconds of media the output will hold (progress is measured against it); null for an image. */
  durationSec: number | null;
  kind: 'video' | 'image';
}

export class NotNormalizable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotNormalizable';
  }
}

/** Aspect ratios people know, tried when the source's has to change: the target gets the nearest one it takes. */
const KNOWN_RATIOS = [9 / 16, 4 / 5, 1, 16 / 9, 1.91];
/** The longest side of a rendition when the target does not bound it: a 1080p frame. */
const DEFAULT_LONG_SIDE = 1920;
const AUDIO_BIT_RATE = 128_000;

/**
 * The ffmpeg arguments that bring a source within a target's rules (libs/platforms MEDIA_RULES):
 * videos become H.264 High (yuv420p) + AAC 48 kHz in an MP4 with its index first (+faststart),
 * fitted into a frame of an aspect ratio the target takes (scaled, then padded with black bars,
 * never cropped), frame rate and bit rate within the target's bounds, cut only when the preset
 * trims; images become a JPEG fitted the same way. ffmpeg applies the display rotation itself,
 * so the probe's displayed width and height are the ones to fit.
 * Options: https://ffmpeg.org/ffmpeg.html, https://trac.ffmpeg.org/wiki/Encode/H.264
 */
export function renderPlan(probe: MediaProbe, preset: ParsedPreset, settings: EncodeSettings): RenderPlan {
  const rule = MEDIA_RULES[preset.target];
  if (rule.kind !== probe.kind)
    throw new NotNormalizable(
      `${rule.label} must be ${rule.kind === 'video' ? 'a video' : 'an image'}; this media is ${probe.kind === 'video' ? 'a video' : 'an image'}.`,
    );
  if (preset.coverAtMs !== undefined) return coverPlan(probe, preset, settings);
  const frame = frameFor(probe.width, probe.height, rule);
  const fit = `scale=${frame.width}:${frame.height}:force_original_aspect_ratio=decrease,pad=${frame.width}:${frame.height}:(ow-iw)/2:(oh-ih)/2:color=black,setsar=1`;
  if (rule.kind === 'image') return imagePlan(fit, settings);
  return videoPlan(probe, preset, settings, fit);
}

type Rule = (typeof MEDIA_RULES)[keyof typeof MEDIA_RULES];

/**
 * A cover frame: the video's frame at the preset's offset (input seeking: ffmpeg decodes from the
 * key frame before it, not from the start), fitted into the frame the target's video gets, its
 * long side within the cover rule's, as one JPEG.
 */
function coverPlan(probe: MediaProbe, preset: ParsedPreset, settings: EncodeSettings): RenderPlan {
  const cover = COVER_RULES[preset.target];
  if (cover?.how !== 'image') throw new NotNormalizable(`${MEDIA_RULES[preset.target].label} takes no cover image.`);
  const atSec = preset.coverAtMs! / 1000;
  if (probe.durationSec !== null && atSec >= probe.durationSec)
    throw new NotNormalizable(
      `The cover frame at ${atSec} s is past the end of the video (${probe.durationSec} s); pick an earlier offset.`,
    );
  const rule = MEDIA_RULES[preset.target];
  const frame = frameFor(probe.width, probe.height, {
    ...rule,
    width: { ...rule.width, max: Math.min(rule.width?.max ?? Infinity, cover.longSideMax) },
    height: { ...rule.height, max: Math.min(rule.height?.max ?? Infinity, cover.longSideMax) },
  });
  const fit = `scale=${frame.width}:${frame.height}:force_original_aspect_ratio=decrease,pad=${frame.width}:${frame.height}:(ow-iw)/2:(oh-ih)/2:color=black,setsar=1`;
  return { ...imagePlan(fit, settings), inputArgs: ['-ss', String(atSec)] };
}

/** One JPEG frame, fitted. */
function imagePlan(fit: string, settings: EncodeSettings): RenderPlan {
  return {
    kind: 'image',
    durationSec: null,
    args: [
      '-frames:v',
      '1',
      '-vf',
      `${fit},format=yuvj420p`,
      '-c:v',
      'mjpeg',
      '-q:v',
      '2',
      '-threads',
      String(settings.threads),
      '-f',
      'image2',
    ],
  };
}

/** H.264 High + AAC in a fast-start MP4, fitted, within the target's frame rate, bit rate and duration. */
function videoPlan(probe: MediaProbe, preset: ParsedPreset, settings: EncodeSettings, fit: string): RenderPlan {
  const rule = MEDIA_RULES[preset.target];
  const { trimTo, durationSec } = durationWithin(rule, probe.durationSec ?? null, preset.trimToSec);
  const fps = clampedFrameRate(probe.video?.frameRate ?? null, rule.frameRate);
  const videoBitRate = videoBitRateFor(durationSec, rule.maxBytes, settings.maxVideoBitRate, !!probe.audio);
  const filters = [fit, ...(fps !== undefined ? [`fps=${fps}`] : []), 'format=yuv420p'];
  const audio = probe.audio ? ['-c:a', 'aac', '-b:a', String(AUDIO_BIT_RATE), '-ar', '48000', '-ac', '2'] : ['-an'];
  return {
    kind: 'video',
    durationSec,
    args: [
      ...(trimTo !== undefined ? ['-t', String(trimTo)] : []),
      '-map',
      '0:v:0',
      ...(probe.audio ? ['-map', '0:a:0'] : []),
      '-vf',
      filters.join(','),
      '-c:v',
      'libx264',
      '-profile:v',
      'high',
      '-preset',
      settings.x264Preset,
      '-crf',
      '23',
      '-maxrate',
      String(videoBitRate),
      '-bufsize',
      String(videoBitRate * 2),
      ...audio,
      '-threads',
      String(settings.threads),
      '-map_metadata',
      '-1',
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
    ],
  };
}

/**
 * The rendition's length: the source's, or the preset's trim when the source is longer; refused
 * when the source is shorter than the target's minimum or, untrimmed, longer than its maximum.
 */
function durationWithin(
  rule: Rule,
  source: number | null,
  trimToSec: number | undefined,
): { trimTo: number | undefined; durationSec: number | null } {
  const min = rule.durationSec?.min;
  if (source !== null && min !== undefined && source < min)
    throw new NotNormalizable(
      `${rule.label} lasts at least ${min} s; this video lasts ${source} s, and a rendition does not lengthen it.`,
    );
  const trimTo = trimToSec !== undefined && source !== null && source > trimToSec ? trimToSec : undefined;
  const max = rule.durationSec?.max;
  if (trimTo === undefined && source !== null && max !== undefined && source > max)
    throw new NotNormalizable(
      `${rule.label} lasts at most ${max} s; this video lasts ${source} s (normalize with { "trim": true } to cut it).`,
    );
  return { trimTo, durationSec: trimTo ?? source };
}

/**
 * The rendition's frame: the source's aspect ratio when the target takes it, else the known
 * ratio nearest to it inside the target's range (a 16:9 video for a 9:16 reel gets a 9:16
 * frame); sized from the source's long side, then grown to the target's smallest width and
 * height and shrunk to its largest; even sides, as yuv420p needs.
 */
export function frameFor(
  width: number,
  height: number,
  rule: { aspectRatio?: MediaRange; width?: MediaRange; height?: MediaRange },
): { width: number; height: number } {
  const ratio = aspectFor(width / height, rule.aspectRatio);
  const long = Math.min(Math.max(width, height), DEFAULT_LONG_SIDE);
  let w = ratio >= 1 ? long : long * ratio;
  let h = ratio >= 1 ? long / ratio : long;
  const grow = Math.max(1, (rule.width?.min ?? 0) / w, (rule.height?.min ?? 0) / h);
  w *= grow;
  h *= grow;
  const shrink = Math.min(1, (rule.width?.max ?? Infinity) / w, (rule.height?.max ?? Infinity) / h);
  w *= shrink;
  h *= shrink;
  return { width: even(w, rule.width), height: even(h, rule.height) };
}

function aspectFor(ratio: number, range: MediaRange | undefined): number {
  if (!range || ((range.min === undefined || ratio >= range.min) && (range.max === undefined || ratio <= range.max)))
    return ratio;
  const inside = KNOWN_RATIOS.filter(
    (r) => (range.min === undefined || r >= range.min) && (range.max === undefined || r <= range.max),
  );
  if (inside.length)
    return inside.reduce((best, r) => (Math.abs(Math.log(r / ratio)) < Math.abs(Math.log(best / ratio)) ? r : best));
  return Math.min(Math.max(ratio, range.min ?? ratio), range.max ?? ratio);
}

/** An even number of pixels, rounded up when rounding down would fall below the target's minimum. */
function even(value: number, range: MediaRange | undefined): number {
  const down = Math.max(2, Math.floor(value / 2) * 2);
  return range?.min !== undefined && down < range.min ? down + 2 : down;
}

function clampedFrameRate(rate: number | null, range: MediaRange | undefined): number | undefined {
  if (rate === null || !range) return undefined;
  if (range.max !== undefined && rate > range.max) return range.max;
  if (range.min !== undefined && rate < range.min) return range.min;
  return undefined;
}

/** The settings' cap, or less when the target's largest file would not hold that many bits (5 % kept for the container). */
function videoBitRateFor(
  durationSec: number | null,
  maxBytes: number | undefined,
  cap: number,
  withAudio: boolean,
): number {
  if (!maxBytes || !durationSec) return cap;
  const budget = Math.floor((maxBytes * 8 * 0.95) / durationSec) - (withAudio ? AUDIO_BIT_RATE : 0);
  return Math.max(100_000, Math.min(cap, budget));
}
