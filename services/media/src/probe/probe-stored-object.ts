import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { AppError, type MediaProbe } from '@postbus/contracts';
import { decodeHeif, ProbeFailure, probeFigures, runFfprobe } from '@postbus/kit';
import type { MediaStore } from '../storage/media-store';

export interface ProbeOptions {
  ffprobePath: string;
  /** libheif's heif-convert: a HEIC photo is decoded to a PNG, which ffprobe reads. */
  heifConvertPath: string;
  timeoutMs: number;
  /** ffprobe processes running at once in this process; the others wait their turn. */
  concurrency: number;
}

/** Reads a stored object's figures; media_unreadable when ffprobe cannot read a picture out of it. */
export type ProbeObject = (key: string, contentType: string) => Promise<MediaProbe>;

/** ffprobe's JSON for one file stays far below this; more means a file built to make it talk. */
const MAX_OUTPUT_BYTES = 1024 * 1024;

/**
 * Probes objects of `store`: each is copied to a private temporary file (ffprobe seeks, and an
 * MP4 may keep its index at the end, so a pipe will not do; the same path serves S3), read by
 * ffprobe and removed.
 */
export function objectProber(store: MediaStore, opts: ProbeOptions): ProbeObject {
  const turn = turns(opts.concurrency);
  return (key, contentType) =>
    turn(async () => {
      const dir = await mkdtemp(join(tmpdir(), 'postbus-probe-'));
      try {
        const file = join(dir, 'object');
        await pipeline(await store.open(key), createWriteStream(file, { flags: 'wx', mode: 0o600 }));
        const heic = contentType === 'image/heic';
        const read = heic ? join(dir, 'decoded.png') : file;
        const output = await (heic ? decodeHeif(opts.heifConvertPath, file, read, opts.timeoutMs) : Promise.resolve())
          .then(() =>
            runFfprobe(opts.ffprobePath, read, { timeoutMs: opts.timeoutMs, maxOutputBytes: MAX_OUTPUT_BYTES }),
          )
          .catch((err) => {
            throw err instanceof ProbeFailure ? unreadable(contentType, err, opts.timeoutMs) : err;
          });
        const figures = probeFigures(output, heic ? 'image/png' : contentType);
        if (!figures)
          throw unreadable(contentType, new ProbeFailure('unreadable', 'no picture stream'), opts.timeoutMs);
        // The figures of the decoded primary image (rotation applied), named as the HEIC they came from.
        return heic ? { ...figures, container: 'heif', image: { ...figures.image!, format: 'hevc' } } : figures;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
}

function unreadable(contentType: string, failure: ProbeFailure, timeoutMs: number): AppError {
  const kind = contentType.startsWith('video/') ? 'video' : 'image';
  const message =
    failure.reason === 'timeout'
      ? `The file could not be read within ${timeoutMs >= 1000 ? `${timeoutMs / 1000} s` : `${timeoutMs} ms`}; nothing was stored. Export it again as a plain ${kind} (for example MP4 with H.264, or JPEG).`
      : `The file starts like ${contentType} but could not be read as a ${kind}: it is damaged or not what it claims to be; nothing was stored. Export it again and upload the new file.`;
  return new AppError('media_unreadable', message, { reason: failure.reason });
}

/** At most `n` tasks at once; the rest wait in order. */
function turns(n: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
