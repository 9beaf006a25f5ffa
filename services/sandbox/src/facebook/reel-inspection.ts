import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProbeFailure, probeFigures, runFfprobe, type Logger } from '@postbus/kit';
import { checkMediaRules } from '@postbus/platforms';
import type { MediaInspection, SandboxState } from '../state';
import type { FacebookVideo } from './store';

/** What Facebook answers in processing_phase for a file it cannot read at all. */
const UNREADABLE = 'The video could not be processed.';

/** Where the bytes of one reel are kept while it is uploaded, then read and removed. */
export function reelSpoolFile(videoId: string): string {
  return join(tmpdir(), `sandbox-fb-reel-${process.pid}-${videoId}`);
}

/**
 * Reads one rupload request's bytes; answers how many. Bytes that start like an MP4/MOV (`ftyp`)
 * or WebM (EBML) file are appended to the reel's file for inspection; placeholder bytes that do
 * not (test fixtures standing in for a video) are only counted, as other emulators read only the
 * links Postbus stores.
 */
export async function spoolReelBytes(video: FacebookVideo, body: AsyncIterable<Buffer>): Promise<number> {
  let read = 0;
  let out: WriteStream | undefined;
  for await (const piece of body) {
    if (read === 0 && video.bytesReceived === 0) video.spooled = startsLikeVideo(piece);
    read += piece.length;
    if (!video.spooled) continue;
    out ??= createWriteStream(reelSpoolFile(video.id), { flags: 'a', mode: 0o600 });
    if (!out.write(piece)) await once(out, 'drain');
  }
  if (out) await new Promise((resolve) => out.end(resolve));
  return read;
}

function startsLikeVideo(head: Buffer): boolean {
  return head.toString('latin1', 4, 8) === 'ftyp' || head.subarray(0, 4).equals(Buffer.from('1a45dfa3', 'hex'));
}

/**
 * Facebook processes a reel after its upload and ends processing in error when it breaks the
 * reels requirements (9:16, at least 540×960, 24–60 FPS, 3–90 s, H.264/HEVC/VP9/AV1, AAC 48 kHz):
 * https://developers.facebook.com/docs/video-api/guides/reels-publishing#requirements. The sandbox
 * reads the uploaded bytes with ffprobe and judges them by the same table as Postbus's preflight
 * (@postbus/platforms MEDIA_RULES `facebook.reel`); processing stays in_progress meanwhile, and a
 * reel asked to publish goes live only once it passed (`onPassed`).
 */
export function inspectReelLater(
  state: SandboxState,
  video: FacebookVideo,
  logger: Logger,
  onPassed: () => void,
): void {
  const inspection = state.mediaInspection;
  const file = reelSpoolFile(video.id);
  if (!inspection || !video.spooled) return void rm(file, { force: true });
  video.inspecting = true;
  reelProcessingMessage(file, video.bytesReceived, inspection)
    .then((message) => {
      if (message) {
        video.processingError = true;
        video.processingMessage = message;
      }
    })
    .catch((err: Error) => logger.warn('reel bytes not inspected', { videoId: video.id, err: err.message }))
    .finally(() => {
      video.inspecting = false;
      if (!video.processingError && video.publishRequestedAt !== null) onPassed();
      void rm(file, { force: true });
    });
}

/** The processing error Facebook would give the reel in `file`, or null when it takes it. */
export async function reelProcessingMessage(
  file: string,
  sizeBytes: number,
  inspection: MediaInspection,
): Promise<string | null> {
  const output = await runFfprobe(inspection.ffprobePath, file, {
    timeoutMs: inspection.timeoutMs,
    maxOutputBytes: 1024 * 1024,
  }).catch((err) => {
    if (err instanceof ProbeFailure) return undefined;
    throw err;
  });
  const contentType = output?.format?.format_name?.includes('webm') ? 'video/webm' : 'video/mp4';
  const probe = output && probeFigures(output, contentType);
  if (!probe) return UNREADABLE;
  const breaks = checkMediaRules(
    'facebook',
    { contentType, sizeBytes, probe },
    {
      items: 1,
      settings: { facebook: { reel: true } },
    },
  );
  return breaks.length ? `${UNREADABLE} ${breaks.map((b) => b.message).join(' ')}` : null;
}
