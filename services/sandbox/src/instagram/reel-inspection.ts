import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MEDIA_FILES_PATH } from '@postbus/contracts';
import { ProbeFailure, probeFigures, runFfprobe, type Logger } from '@postbus/kit';
import { checkMediaRules, openMediaLink } from '@postbus/platforms';
import type { MediaInspection, SandboxState } from '../state';
import type { InstagramContainer } from './store';
import { coverProcessingError } from './cover-inspection';

/** Larger than any reel Instagram takes (300 MB) is not read further: it is refused by size. */
const MAX_BYTES = 301 * 1024 * 1024;
/** Instagram's processing errors (platform-apis.md 1.7): aspect ratio not supported, video format not supported. */
const ASPECT_RATIO_ERROR = '-1/2207009';
const VIDEO_FORMAT_ERROR = '352/2207026';

/**
 * Instagram processes a reel's video after the container is created and ends in ERROR when it
 * breaks the reels specification. The sandbox does the same for the media Postbus stores (links
 * under `/files/`), judged by the same table as Postbus's own preflight (@postbus/platforms
 * MEDIA_RULES), and its cover_url by the Reels cover photo specifications: the container stays
 * IN_PROGRESS while they are read. Other links are not read.
 */
export function inspectReelLater(state: SandboxState, container: InstagramContainer, logger: Logger): void {
  const inspection = state.mediaInspection;
  if (!inspection || container.mediaType !== 'REELS' || !container.mediaUrl || !isStoredFileLink(container.mediaUrl))
    return;
  container.inspecting = true;
  const cover = container.coverUrl;
  Promise.all([
    reelProcessingError(container.mediaUrl, inspection),
    cover && isStoredFileLink(cover) ? coverProcessingError(cover, inspection) : null,
  ])
    .then(([error, coverError]) => {
      if (error ?? coverError) container.processingError ??= error ?? coverError;
    })
    .catch((err: Error) => logger.warn('reel video not inspected', { containerId: container.id, err: err.message }))
    .finally(() => {
      container.inspecting = false;
    });
}

/** The container's processing error for the reel at `url`, or null when Instagram would take it. */
export async function reelProcessingError(url: string, inspection: MediaInspection): Promise<string | null> {
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-reel-'));
  try {
    const res = await openMediaLink(
      url,
      { method: 'GET' },
      { platform: 'instagram', access: { allowLoopback: true }, timeoutMs: inspection.timeoutMs },
    );
    if (res.status !== 200) {
      res.body.destroy();
      return null;
    }
    const file = join(dir, 'video');
    let sizeBytes = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _enc, done) {
        sizeBytes += chunk.length;
        done(sizeBytes > MAX_BYTES ? new Error('larger than any reel') : null, chunk);
      },
    });
    await pipeline(res.body, counted, createWriteStream(file));
    const contentType = String(res.headers['content-type'] ?? 'video/mp4')
      .split(';')[0]
      .trim();
    const output = await runFfprobe(inspection.ffprobePath, file, {
      timeoutMs: inspection.timeoutMs,
      maxOutputBytes: 1024 * 1024,
    }).catch((err) => {
      if (err instanceof ProbeFailure) return undefined;
      throw err;
    });
    const probe = output && probeFigures(output, contentType.startsWith('video/') ? contentType : 'video/mp4');
    if (!probe) return VIDEO_FORMAT_ERROR;
    const breaks = checkMediaRules('instagram', { contentType, sizeBytes, probe }, { items: 1 });
    if (!breaks.length) return null;
    return breaks.some((b) => b.rule === 'aspect_ratio') ? ASPECT_RATIO_ERROR : VIDEO_FORMAT_ERROR;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function isStoredFileLink(raw: string): boolean {
  return URL.canParse(raw) && new URL(raw).pathname.includes(`${MEDIA_FILES_PATH}/`);
}
