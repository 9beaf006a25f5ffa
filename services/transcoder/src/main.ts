import { access, constants } from 'node:fs/promises';
import { Rpc } from '@postbus/contracts';
import { runMain } from '@postbus/kit';
import { bootService } from '@postbus/service';
import { readConfig } from './config';
import { consumeRenditionJobs } from './entry-points/consumers';
import type { TranscodePorts } from './transcode/transcode-ports';
import { removeStaleWorkDirs } from './transcode/work-dirs';

/** Makes renditions (normalize): no tables of its own; media keeps every byte and row. */
export async function start(env?: Record<string, string | undefined>) {
  const config = readConfig(env);
  await access(config.FFMPEG_PATH, constants.X_OK).catch(() => {
    throw new Error(
      `transcoder: FFMPEG_PATH ${config.FFMPEG_PATH} is not an executable (install Debian's ffmpeg package)`,
    );
  });
  const svc = await bootService({ name: 'transcoder', config });
  const rpc = svc.bus.rpc;
  const ports: TranscodePorts = {
    media: {
      start: (principal, renditionId) => rpc.call(Rpc.mediaStartRendition, { renditionId }, principal),
      progress: (principal, renditionId, percent) =>
        rpc.call(Rpc.mediaRenditionProgress, { renditionId, percent }, principal),
      fail: (principal, renditionId, reason) =>
        rpc.call(Rpc.mediaFailRendition, { renditionId, reason: reason.slice(0, 1000) }, principal),
    },
    mediaHttpUrl: config.MEDIA_HTTP_URL,
    ffmpegPath: config.FFMPEG_PATH,
    heifConvertPath: config.HEIF_CONVERT_PATH,
    encode: {
      threads: config.TRANSCODER_THREADS,
      x264Preset: config.TRANSCODER_X264_PRESET,
      maxVideoBitRate: config.TRANSCODER_MAX_VIDEO_BITRATE,
    },
    timeoutMs: config.TRANSCODER_TIMEOUT_MS,
    workDir: config.TRANSCODER_WORK_DIR,
    progressEveryMs: config.TRANSCODER_PROGRESS_EVERY_MS,
    logger: svc.logger.child({ module: 'transcode' }),
  };
  const consumer = consumeRenditionJobs(svc.bus, ports, {
    concurrency: config.TRANSCODER_CONCURRENCY,
    retryDelaysMs: config.TRANSCODER_RETRY_DELAYS_MS,
  });
  // A transcoder killed mid-job left its job's directory behind: removed once older than any job runs.
  const stale = await removeStaleWorkDirs(config.TRANSCODER_WORK_DIR, workDirCeilingMs(config.TRANSCODER_TIMEOUT_MS));
  if (stale.length) svc.logger.warn('removed work directories of killed jobs', { count: stale.length });
  await svc.rpc.start();
  await consumer.start();
  svc.lifecycle.onStop('consumer', () => consumer.stop());
  svc.logger.info('transcoder started', {
    concurrency: config.TRANSCODER_CONCURRENCY,
    threads: config.TRANSCODER_THREADS,
  });
  return svc;
}

/** The longest a job's directory lives: ffmpeg's own ceiling, plus an hour for copying the source in and the result out. */
export function workDirCeilingMs(timeoutMs: number): number {
  return timeoutMs + 3_600_000;
}

if (require.main === module) runMain(start);
