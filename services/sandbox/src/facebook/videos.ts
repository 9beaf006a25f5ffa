import type { Logger } from '@postbus/kit';
import { GraphError, invalidParameter, objectNotFound } from '../meta/graph-error';
import { inspectReelLater, spoolReelBytes } from './reel-inspection';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import { imageTypeOf } from '../image-bytes';
import type { GraphFile } from '../meta/graph-multipart';
import type { FacebookVideo } from './store';

const FAIL_PROCESSING = /fail-processing/;

/** A Page video's `thumb`: at most 10 MB (https://developers.facebook.com/docs/graph-api/reference/video/thumbnails/). */
const THUMB_MAX_BYTES = 10 * 1024 * 1024;
/** The image kinds Facebook takes as a video thumbnail: BMP, GIF, JPEG, PNG, TIFF. */
const THUMB_TYPES = ['image/bmp', 'image/gif', 'image/jpeg', 'image/png', 'image/tiff'];
/** The largest multipart body `POST /{page-id}/videos` reads: a thumb and the text parameters. */
export const PAGE_VIDEO_BODY_MAX = THUMB_MAX_BYTES + 1024 * 1024;

/**
 * `POST /{page-id}/videos` with `file_url` (and, as a multipart call, a `thumb` image file:
 * https://developers.facebook.com/docs/graph-api/reference/page/videos/#Creating): the video is
 * published and processes in the background. A thumb that is not an image (judged from its bytes)
 * or is over 10 MB is refused with the call.
 */
export function createPageVideo(
  state: SandboxState,
  page: SandboxUser,
  params: Record<string, string>,
  uploadBase: string,
  thumbFile?: GraphFile,
): FacebookVideo {
  const fileUrl = params.file_url;
  if (!fileUrl)
    throw invalidParameter('The parameter file_url (or source) is required; the sandbox accepts file_url only.');
  if (!/^https?:\/\//.test(fileUrl)) throw invalidParameter('Param file_url must be an http or https URL.');
  const thumb = thumbFile ? checkedThumb(thumbFile) : undefined;
  const now = state.now();
  const video = newVideo(
    state,
    page,
    'video',
    { title: params.title ?? '', description: params.description ?? '', fileUrl },
    uploadBase,
  );
  video.uploadCompletedAt = now;
  video.thumb = thumb;
  video.processingError = FAIL_PROCESSING.test(fileUrl);
  video.publishRequestedAt = params.published === 'false' ? null : now;
  if (video.publishRequestedAt !== null && !video.processingError) recordVideo(state, page, video);
  return video;
}

function checkedThumb(file: GraphFile): { contentType: string; size: number } {
  const contentType = imageTypeOf(file.data);
  if (!THUMB_TYPES.includes(contentType))
    throw invalidParameter('Param thumb must be an image file: BMP, GIF, JPEG, PNG or TIFF.');
  if (file.data.length > THUMB_MAX_BYTES) throw invalidParameter('Param thumb must be an image of at most 10 MB.');
  return { contentType, size: file.data.length };
}

/** `POST /{page-id}/video_reels upload_phase=start`. */
export function startReel(
  state: SandboxState,
  page: SandboxUser,
  uploadBase: string,
  version: string,
): { video: FacebookVideo; uploadUrl: string } {
  const video = newVideo(state, page, 'reel', { title: '', description: '', fileUrl: null }, uploadBase);
  return { video, uploadUrl: `${uploadBase}/video-upload/${version}/${video.id}` };
}

/** `POST /{page-id}/video_reels upload_phase=finish video_id= video_state=`: PUBLISHED goes live once processing ends. */
export function finishReel(state: SandboxState, page: SandboxUser, params: Record<string, string>): void {
  const video = state.facebook.videos.get(params.video_id ?? '');
  if (!video || video.pageId !== page.userId || video.kind !== 'reel')
    throw invalidParameter(`The parameter video_id does not name a reel of this Page.`);
  if (video.uploadCompletedAt === null)
    throw invalidParameter(
      'The video upload is not complete; upload the bytes before finishing.',
      'The video has not been uploaded.',
    );
  if (video.publishRequestedAt !== null) throw invalidParameter(`The reel ${video.id} has already been published.`);
  const state_ = (params.video_state ?? '').toUpperCase();
  if (!['PUBLISHED', 'DRAFT', 'SCHEDULED'].includes(state_))
    throw invalidParameter('Param video_state must be one of PUBLISHED, DRAFT, SCHEDULED.');
  video.description = params.description ?? '';
  if (state_ !== 'PUBLISHED') return;
  const now = state.now();
  if (state.facebook.reelsInWindow(page.userId, now) >= state.facebook.limits.reelsPer24h) {
    throw new GraphError(
      400,
      9,
      `(#9) The Page has reached the limit of ${state.facebook.limits.reelsPer24h} reels published through the API in 24 hours.`,
    );
  }
  video.publishRequestedAt = now;
  // A reel whose bytes are still being read goes live once they pass (reel-inspection.ts).
  if (!video.processingError && !video.inspecting) recordVideo(state, page, video);
}

/** rupload: `offset` + `file_size` headers with the bytes, or a `file_url` header. */
export async function receiveReelBytes(
  state: SandboxState,
  page: SandboxUser,
  videoId: string,
  headers: { offset?: string; fileSize?: string; fileUrl?: string },
  body: AsyncIterable<Buffer>,
  logger: Logger,
): Promise<number> {
  const video = state.facebook.videos.get(videoId);
  if (!video || video.pageId !== page.userId) throw objectNotFound('post', videoId);
  if (video.uploadCompletedAt !== null) throw invalidParameter('The video has already been uploaded.');
  if (headers.fileUrl) {
    video.fileUrl = headers.fileUrl;
    video.processingError = FAIL_PROCESSING.test(headers.fileUrl);
    video.uploadCompletedAt = state.now();
    return 0;
  }
  const offset = Number(headers.offset);
  const size = Number(headers.fileSize);
  if (!Number.isInteger(offset) || !Number.isInteger(size) || size <= 0)
    throw invalidParameter('The offset and file_size headers are required (or file_url).');
  if (offset !== video.bytesReceived)
    throw invalidParameter(`The upload must continue at offset ${video.bytesReceived}, not ${offset}.`);
  let read = 0;
  if (state.mediaInspection) read = await spoolReelBytes(video, body);
  else for await (const piece of body) read += piece.length;
  if (offset + read > size) throw invalidParameter('More bytes arrived than file_size announced.');
  video.fileSize = size;
  video.bytesReceived = offset + read;
  if (video.bytesReceived === size) {
    video.uploadCompletedAt = state.now();
    inspectReelLater(state, video, logger, () => recordVideo(state, page, video));
  }
  return read;
}

/** `GET /{video-id}?fields=status` in the reels-publishing shape. */
export function videoStatus(state: SandboxState, video: FacebookVideo): Record<string, unknown> {
  const now = state.now();
  const uploaded = video.uploadCompletedAt !== null;
  const processed = uploaded && now - video.uploadCompletedAt! >= state.settingsFor('facebook').processingDelayMs;
  const processing = !uploaded
    ? 'not_started'
    : video.inspecting
      ? 'in_progress'
      : video.processingError && processed
        ? 'error'
        : processed
          ? 'complete'
          : 'in_progress';
  const publishing =
    video.publishRequestedAt === null
      ? 'not_started'
      : processing === 'complete'
        ? 'complete'
        : processing === 'error'
          ? 'error'
          : 'in_progress';
  return {
    video_status:
      processing === 'error'
        ? 'error'
        : processing === 'complete'
          ? 'ready'
          : uploaded
            ? 'processing'
            : 'upload_complete',
    uploading_phase: {
      status: uploaded ? 'complete' : video.bytesReceived > 0 ? 'in_progress' : 'not_started',
      bytes_transferred: video.bytesReceived,
    },
    processing_phase: {
      status: processing,
      ...(processing === 'error' && {
        error: { message: video.processingMessage ?? 'The video could not be processed.' },
      }),
    },
    publishing_phase: {
      status: publishing,
      ...(publishing === 'complete' && {
        publish_status: 'published',
        publish_time: Math.floor(video.publishRequestedAt! / 1000),
      }),
    },
  };
}

function newVideo(
  state: SandboxState,
  page: SandboxUser,
  kind: 'video' | 'reel',
  fields: { title: string; description: string; fileUrl: string | null },
  _uploadBase: string,
): FacebookVideo {
  const id = state.ids.numeric();
  const video: FacebookVideo = {
    id,
    pageId: page.userId,
    kind,
    ...fields,
    fileSize: null,
    bytesReceived: 0,
    createdAt: state.now(),
    uploadCompletedAt: null,
    processingError: false,
    publishRequestedAt: null,
    permalink:
      kind === 'reel' ? `https://www.facebook.com/reel/${id}` : `https://www.facebook.com/${page.userId}/videos/${id}/`,
  };
  state.facebook.videos.set(id, video);
  return video;
}

function recordVideo(state: SandboxState, page: SandboxUser, video: FacebookVideo): void {
  state.published.record({
    platform: 'facebook',
    id: video.id,
    userId: page.userId,
    handle: page.handle,
    text: video.description,
    mediaUrls: video.fileUrl ? [video.fileUrl] : [],
    mediaType: video.kind === 'reel' ? 'REELS' : 'VIDEO',
    containerId: null,
    permalink: video.permalink,
    createdAt: new Date(state.now()).toISOString(),
    title: video.title || null,
    bytes: video.fileUrl ? undefined : video.bytesReceived,
    ...(video.thumb && { details: { thumb: video.thumb } }),
  });
}
