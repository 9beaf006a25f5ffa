import { randomUUID } from 'node:crypto';
import { PlatformError } from '../errors';
import { callX, X_PLATFORM, type XApiOptions } from './api';

/**
 * X media limits (https://docs.x.com/x-api/media/quickstart/best-practices): images (JPEG, PNG,
 * WebP) up to 5 MB, GIFs up to 15 MB, videos (MP4, MOV) up to 512 MB; APPEND chunks up to 5 MB
 * (https://docs.x.com/x-api/media/append-media-upload).
 */
export const X_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const X_GIF_MAX_BYTES = 15 * 1024 * 1024;
export const X_VIDEO_MAX_BYTES = 512 * 1024 * 1024;
export const X_CHUNK_MAX_BYTES = 5 * 1024 * 1024;

export type XMediaCategory = 'tweet_image' | 'tweet_gif' | 'tweet_video';

/** The category X files a media type under: it sets the size and processing rules. */
export function xMediaCategory(contentType: string): XMediaCategory {
  if (contentType === 'image/gif') return 'tweet_gif';
  return contentType.startsWith('video/') ? 'tweet_video' : 'tweet_image';
}

export function xMediaMaxBytes(category: XMediaCategory): number {
  return category === 'tweet_video'
    ? X_VIDEO_MAX_BYTES
    : category === 'tweet_gif'
      ? X_GIF_MAX_BYTES
      : X_IMAGE_MAX_BYTES;
}

/** Where X's processing of an upload stands; absent `processing_info` means ready. */
export interface XMediaState {
  id: string;
  state: 'ready' | 'pending' | 'in_progress' | 'succeeded' | 'failed';
  checkAfterSecs?: number;
  error?: string;
}

function multipart(fields: Record<string, string>, file?: { bytes: Uint8Array; contentType: string }) {
  const boundary = `postbus-${randomUUID()}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file)
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="media"; filename="media"\r\ncontent-type: ${file.contentType}\r\n\r\n`,
      ),
      Buffer.from(file.bytes),
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

function stateOf(data: Record<string, unknown> | undefined): XMediaState {
  const id = data?.id;
  if (typeof id !== 'string')
    throw new PlatformError('X answered a media upload without its id.', {
      platform: X_PLATFORM,
      transient: true,
      code: 'invalid_answer',
    });
  const info = data?.processing_info as
    { state?: string; check_after_secs?: number; error?: { message?: string; name?: string } } | undefined;
  if (!info?.state) return { id, state: 'ready' };
  return {
    id,
    state: info.state as XMediaState['state'],
    checkAfterSecs: typeof info.check_after_secs === 'number' ? info.check_after_secs : undefined,
    error: info.error?.message ?? info.error?.name,
  };
}

/** One image in one call: https://docs.x.com/x-api/media/media-upload */
export async function uploadXImage(
  api: XApiOptions,
  file: { bytes: Uint8Array; contentType: string },
): Promise<XMediaState> {
  const { body } = await callX<{ data?: Record<string, unknown> }>(api, {
    method: 'POST',
    path: '/2/media/upload',
    multipart: multipart({ media_category: 'tweet_image' }, file),
  });
  return stateOf(body.data);
}

/** Opens a chunked upload: https://docs.x.com/x-api/media/initialize-media-upload */
export async function initializeXUpload(
  api: XApiOptions,
  p: { contentType: string; totalBytes: number; category: XMediaCategory },
): Promise<string> {
  const { body } = await callX<{ data?: Record<string, unknown> }>(api, {
    method: 'POST',
    path: '/2/media/upload/initialize',
    json: { media_type: p.contentType, total_bytes: p.totalBytes, media_category: p.category },
  });
  return stateOf(body.data).id;
}

/** Sends one chunk (at most 5 MB), numbered from 0: https://docs.x.com/x-api/media/append-media-upload */
export async function appendXUpload(
  api: XApiOptions,
  mediaId: string,
  segmentIndex: number,
  bytes: Uint8Array,
): Promise<void> {
  await callX(api, {
    method: 'POST',
    path: `/2/media/upload/${encodeURIComponent(mediaId)}/append`,
    multipart: multipart({ segment_index: String(segmentIndex) }, { bytes, contentType: 'application/octet-stream' }),
  });
}

/** Closes a chunked upload; a video then has `processing_info`: https://docs.x.com/x-api/media/finalize-media-upload */
export async function finalizeXUpload(api: XApiOptions, mediaId: string): Promise<XMediaState> {
  const { body } = await callX<{ data?: Record<string, unknown> }>(api, {
    method: 'POST',
    path: `/2/media/upload/${encodeURIComponent(mediaId)}/finalize`,
  });
  return stateOf(body.data);
}

/** Where processing stands: https://docs.x.com/x-api/media/get-media-upload-status */
export async function getXUploadStatus(api: XApiOptions, mediaId: string): Promise<XMediaState> {
  const { body } = await callX<{ data?: Record<string, unknown> }>(api, {
    method: 'GET',
    path: '/2/media/upload',
    query: { command: 'STATUS', media_id: mediaId },
  });
  return stateOf(body.data);
}

/** A failed processing is the file's fault: X will not take it as it is. */
export function xProcessingFailure(state: XMediaState): PlatformError {
  return new PlatformError(`X could not process the media${state.error ? `: ${state.error}` : ''}.`, {
    platform: X_PLATFORM,
    transient: false,
    code: 'media_processing_failed',
  });
}
