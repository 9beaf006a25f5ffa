import { randomUUID } from 'node:crypto';
import { PlatformError } from '../errors';
import { callPinterest, PINTEREST_PLATFORM, type PinterestApiOptions } from './api';

export interface PinterestUpload {
  mediaId: string;
  uploadUrl: string;
  uploadParameters: Record<string, string>;
}

export type PinterestMediaStatus = 'registered' | 'processing' | 'succeeded' | 'failed';

/** Registers a video upload: https://developers.pinterest.com/docs/api/v5/media-create */
export async function registerPinterestVideo(api: PinterestApiOptions): Promise<PinterestUpload> {
  const body = await callPinterest<{ media_id?: unknown; upload_url?: unknown; upload_parameters?: unknown }>(api, {
    method: 'POST',
    path: '/v5/media',
    json: { media_type: 'video' },
  });
  const params = body.upload_parameters;
  if (typeof body.media_id !== 'string' || typeof body.upload_url !== 'string' || !params || typeof params !== 'object')
    throw new PlatformError('Pinterest answered a media registration without its upload details.', {
      platform: PINTEREST_PLATFORM,
      transient: true,
      code: 'invalid_answer',
    });
  const uploadParameters: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) uploadParameters[k] = String(v);
  return { mediaId: body.media_id, uploadUrl: body.upload_url, uploadParameters };
}

/**
 * Sends the video to `upload_url` as a multipart form: every upload parameter, then `file`
 * (https://developers.pinterest.com/docs/api-features/creating-boards-and-pins/#uploading-video-to-pinterest).
 * The bytes are streamed, never held whole; the form's length is known, so it goes with a
 * Content-Length as S3 wants. A refused or lost upload is started over with a new registration
 * (`restart`): nothing was published.
 */
export async function uploadPinterestVideo(
  upload: PinterestUpload,
  file: { body: ReadableStream<Uint8Array>; size: number; contentType: string },
  opts: { timeoutMs: number; fetchImpl?: typeof fetch },
): Promise<void> {
  const boundary = `postbus-${randomUUID()}`;
  const fields = Object.entries(upload.uploadParameters)
    .map(
      ([k, v]) =>
        `--${boundary}\r\ncontent-disposition: form-data; name="${k.replace(/["\r\n]/g, '')}"\r\n\r\n${v}\r\n`,
    )
    .join('');
  const head = Buffer.from(
    `${fields}--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="video"\r\ncontent-type: ${file.contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  let status: number;
  try {
    const res = await (opts.fetchImpl ?? fetch)(upload.uploadUrl, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + file.size + tail.length),
      },
      body: framed(head, file.body, tail),
      duplex: 'half',
      signal: AbortSignal.timeout(opts.timeoutMs),
      redirect: 'manual',
    });
    status = res.status;
    await res.body?.cancel(); // only the status tells: the storage's answer is left unread
  } catch (cause) {
    throw new PlatformError('The video upload to Pinterest did not finish; trying again.', {
      platform: PINTEREST_PLATFORM,
      transient: true,
      restart: true,
      code: 'upload_failed',
      cause,
    });
  }
  if (status >= 200 && status < 300) return;
  throw new PlatformError(`Pinterest's upload storage refused the video (HTTP ${status}); trying again.`, {
    platform: PINTEREST_PLATFORM,
    transient: true,
    restart: true,
    code: 'upload_refused',
    status,
  });
}

/** `head`, the file's bytes as they come, then `tail`. */
function framed(head: Uint8Array, body: ReadableStream<Uint8Array>, tail: Uint8Array): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(head);
        return;
      }
      const { done, value } = await reader.read();
      if (!done) return controller.enqueue(value);
      controller.enqueue(tail);
      controller.close();
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** Where an upload stands: https://developers.pinterest.com/docs/api/v5/media-get */
export async function getPinterestMediaStatus(
  api: PinterestApiOptions,
  mediaId: string,
): Promise<PinterestMediaStatus> {
  const body = await callPinterest<{ status?: unknown }>(api, {
    method: 'GET',
    path: `/v5/media/${encodeURIComponent(mediaId)}`,
  });
  const status = String(body.status);
  return (
    ['registered', 'processing', 'succeeded', 'failed'].includes(status) ? status : 'processing'
  ) as PinterestMediaStatus;
}
