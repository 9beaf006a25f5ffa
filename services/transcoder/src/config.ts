import { tmpdir } from 'node:os';
import { int, loadConfig, oneOf, str, url } from '@postbus/kit';
import { serviceVars } from '@postbus/service';

function msList(doc: string, def: number[]) {
  return {
    doc,
    default: def,
    parse(raw: string) {
      const list = raw.split(',').map((s) => Number(s.trim()));
      if (!list.length || list.some((n) => !Number.isInteger(n) || n < 0))
        throw new Error('expected comma-separated milliseconds');
      return list;
    },
  };
}

export const transcoderVars = {
  ...serviceVars,
  MEDIA_HTTP_URL: url(
    "Media's own HTTP listener: the transcoder reads sources and sends renditions there, on paths media signs",
    'http://127.0.0.1:3002',
  ),
  FFMPEG_PATH: str('The ffmpeg binary (Debian package ffmpeg, built with libx264)', '/usr/bin/ffmpeg'),
  HEIF_CONVERT_PATH: str(
    "libheif's heif-convert (Debian package libheif-examples): decodes a HEIC photo before ffmpeg, which cannot read it, converts it",
    '/usr/bin/heif-convert',
  ),
  TRANSCODER_CONCURRENCY: int(
    'Renditions one transcoder process makes at once (its prefetch); each takes up to TRANSCODER_THREADS cores',
    1,
    1,
  ),
  TRANSCODER_THREADS: int('ffmpeg -threads of one rendition: the cores it may take', 2, 1),
  TRANSCODER_TIMEOUT_MS: int(
    'Longest ffmpeg run of one rendition; past it ffmpeg is killed and the rendition fails',
    1_800_000,
    1,
  ),
  // ultrafast leaves out CABAC and 8×8 transforms, which makes a Constrained Baseline stream, not High.
  TRANSCODER_X264_PRESET: oneOf(
    'x264 speed preset: CPU spent against bytes saved (faster ones make bigger files)',
    ['superfast', 'veryfast', 'faster', 'fast', 'medium', 'slow'] as const,
    'veryfast',
  ),
  TRANSCODER_MAX_VIDEO_BITRATE: int(
    'Highest video bit rate of a rendition, bits per second (lower when the platform caps the file size)',
    8_000_000,
    100_000,
  ),
  TRANSCODER_WORK_DIR: str(
    "Directory for a job's source copy and output while it runs (empty: the system temporary directory); needs room for the largest source plus its rendition",
    '',
  ),
  TRANSCODER_PROGRESS_EVERY_MS: int('Least time between two progress reports of one rendition to media', 1000, 1),
  TRANSCODER_RETRY_DELAYS_MS: msList(
    'Delays before a job whose handling failed inside Postbus (media or the broker unreachable) is redelivered; their count bounds those redeliveries',
    [2000, 10_000, 60_000],
  ),
};

export function readConfig(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(transcoderVars, env);
  return { ...config, TRANSCODER_WORK_DIR: config.TRANSCODER_WORK_DIR || tmpdir() };
}
export type TranscoderConfig = ReturnType<typeof readConfig>;
