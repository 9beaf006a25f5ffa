import { access, constants } from 'node:fs/promises';
import { Rpc } from '@postbus/contracts';
import { runMain } from '@postbus/kit';
import { bootService } from '@postbus/service';
import { readConfig } from './config';
import { consumeRenditionJobs } from './entry-points/consumers';
import type { TranscodePorts } from './transcode/transcode-ports';

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
  await svc.rpc.start();
  await consumer.start();
  svc.lifecycle.onStop('consumer', () => consumer.stop());
  svc.logger.info('transcoder started', {
    concurrency: config.TRANSCODER_CONCURRENCY,
    threads: config.TRANSCODER_THREADS,
  });
  return svc;
}

if (require.main === module) runMain(start);
