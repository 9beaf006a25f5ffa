import { randomBytes } from 'node:crypto';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import { IMAGE_SNIFF_BYTES, imageTypeOf } from '../image-bytes';
import { jsonText, queryText } from '../wire-text';
import { YouTubeError, badRequest } from './http';
import type { YouTubeUpload, YouTubeVideo } from './store';

const PRIVACY = ['public', 'private', 'unlisted'];
/**
 * A title containing `rejected-duplicate` (or another rejectionReason) or `failed-codec` (or another
 * failureReason) ends the upload in that uploadStatus: the video is not published.
 */
const UPLOAD_VERDICT = /\b(rejected|failed)-([A-Za-z]+)/;

/** Step 1 of videos.insert: checks the metadata and the quotas, opens a session. */
export function openUpload(
  state: SandboxState,
  user: SandboxUser,
  query: Record<string, unknown>,
  headers: { length?: string; type?: string },
  body: unknown,
): YouTubeUpload {
  if (query.uploadType !== 'resumable')
    throw badRequest('badRequest', 'The sandbox supports uploadType=resumable only.');
  const parts = queryText(query.part).split(',');
  if (!parts.includes('snippet') || !parts.includes('status'))
    throw badRequest('badRequest', "The part parameter must include 'snippet' and 'status'.");
  const resource = (body && typeof body === 'object' ? body : {}) as Record<
    string,
    Record<string, unknown> | undefined
  >;
  const snippet = resource.snippet ?? {};
  const status = resource.status ?? {};
  const title = typeof snippet.title === 'string' ? snippet.title : '';
  if (!title.trim() || [...title].length > 100 || /[<>]/.test(title))
    throw badRequest('invalidTitle', 'The request metadata specifies an invalid or empty video title.');
  const description = typeof snippet.description === 'string' ? snippet.description : '';
  if (Buffer.byteLength(description) > 5000 || /[<>]/.test(description))
    throw badRequest('invalidDescription', 'The request metadata specifies an invalid video description.');
  const privacy = status.privacyStatus ?? 'public';
  if (typeof privacy !== 'string' || !PRIVACY.includes(privacy))
    throw badRequest('invalidPrivacyStatus', 'The request metadata specifies an invalid privacy status.');
  if (status.publishAt !== undefined && privacy !== 'private')
    throw badRequest('invalidPublishAt', 'publishAt can only be set for private videos.');
  const size = Number(headers.length);
  if (!Number.isInteger(size) || size <= 0)
    throw badRequest('badRequest', 'The X-Upload-Content-Length header is required.');
  const contentType = headers.type ?? 'video/*';
  if (!/^video\/|^application\/octet-stream$/.test(contentType))
    throw badRequest('invalidFilename', 'X-Upload-Content-Type must be video/* or application/octet-stream.');

  const now = state.now();
  if (!state.youtube.channelUpload(user.userId, now)) {
    throw badRequest('uploadLimitExceeded', 'The user has exceeded the number of videos they may upload.');
  }
  if (!state.youtube.charge('insert', now)) {
    throw new YouTubeError(
      403,
      'quotaExceeded',
      'The request cannot be completed because you have exceeded your quota.',
      'youtube.quota',
    );
  }
  const upload: YouTubeUpload = {
    uploadId: randomBytes(18).toString('base64url'),
    userId: user.userId,
    snippet,
    status,
    size,
    contentType,
    received: 0,
    videoId: null,
  };
  state.youtube.uploads.set(upload.uploadId, upload);
  return upload;
}

export type ChunkAnswer = { status: 308; range: string | null } | { status: 201 | 200; video: Record<string, unknown> };

/**
 * `PUT <session>`: `Content-Range: bytes a-b/total` stores bytes (all of them, or at most
 * maxStoredBytesPerRequest) and answers 308 + Range until the file is whole, then 201 + the video;
 * `bytes *\/total` probes.
 */
export async function receiveUploadBytes(
  state: SandboxState,
  user: SandboxUser,
  uploadId: string,
  contentRange: string | undefined,
  body: AsyncIterable<Buffer>,
): Promise<{ answer: ChunkAnswer; read: number }> {
  const upload = state.youtube.uploads.get(uploadId);
  if (!upload || upload.userId !== user.userId)
    throw new YouTubeError(404, 'notFound', 'The upload session does not exist or has expired.', 'global');
  const probe = /^bytes \*\/(\d+)$/.exec(contentRange ?? '');
  if (probe) return { answer: stateOf(state, upload, 200), read: 0 };
  const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(contentRange ?? '');
  if (!range && upload.received === 0 && !contentRange) return receiveWhole(state, user, upload, body);
  if (!range) throw badRequest('badContent', 'Content-Range must be "bytes a-b/total" or "bytes */total".');
  const [first, last, total] = range.slice(1).map(Number);
  if (total !== upload.size) throw badRequest('badContent', `Content-Range total must be ${upload.size}.`);
  if (upload.videoId) return { answer: stateOf(state, upload, 200), read: await drain(body) };
  if (first !== upload.received) return { answer: stateOf(state, upload, 201), read: await drain(body) };
  assertChunkSize(state, last - first + 1, last + 1 === total);
  const cap = state.youtube.limits.maxStoredBytesPerRequest ?? Number.POSITIVE_INFINITY;
  let read = 0;
  let stored = 0;
  for await (const piece of body) {
    read += piece.length;
    stored = Math.min(read, cap);
  }
  if (read !== last - first + 1) throw badRequest('badContent', 'The body length does not match Content-Range.');
  upload.received += stored;
  if (upload.received === upload.size) finish(state, user, upload);
  return { answer: stateOf(state, upload, 201), read };
}

/**
 * Every chunk but the final one must be a multiple of 256 KB (262144 bytes), else 400
 * (https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol, "Uploading a file in chunks").
 */
function assertChunkSize(state: SandboxState, bytes: number, final: boolean): void {
  const multiple = state.youtube.limits.chunkMultipleBytes;
  if (final || multiple === null || bytes % multiple === 0) return;
  throw badRequest(
    'badRequest',
    `Invalid request. The number of bytes uploaded is required to be equal or greater than ${multiple}, except for the final request (it's recommended to be the exact multiple of ${multiple}).`,
  );
}

function stateOf(state: SandboxState, upload: YouTubeUpload, doneStatus: 200 | 201): ChunkAnswer {
  if (upload.videoId) return { status: doneStatus, video: state.youtube.videos.get(upload.videoId)!.resource };
  return { status: 308, range: upload.received > 0 ? `bytes=0-${upload.received - 1}` : null };
}

async function receiveWhole(
  state: SandboxState,
  user: SandboxUser,
  upload: YouTubeUpload,
  body: AsyncIterable<Buffer>,
) {
  const read = await drain(body);
  if (read !== upload.size) throw badRequest('badContent', 'The body length does not match X-Upload-Content-Length.');
  upload.received = read;
  finish(state, user, upload);
  return { answer: stateOf(state, upload, 201), read };
}

function finish(state: SandboxState, user: SandboxUser, upload: YouTubeUpload): YouTubeVideo {
  const id = randomBytes(8).toString('base64url').slice(0, 11);
  const now = new Date(state.now()).toISOString();
  const asked = upload.status.privacyStatus ?? 'public';
  // An unaudited project's upload is restricted to private viewing, whatever it asked for.
  const privacyStatus = state.youtube.limits.unauditedProject ? 'private' : asked;
  const verdict = UPLOAD_VERDICT.exec(jsonText(upload.snippet.title));
  const uploadStatus = verdict
    ? { uploadStatus: verdict[1], [verdict[1] === 'rejected' ? 'rejectionReason' : 'failureReason']: verdict[2] }
    : { uploadStatus: 'uploaded' };
  const resource = {
    kind: 'youtube#video',
    etag: randomBytes(12).toString('base64url'),
    id,
    snippet: { ...upload.snippet, publishedAt: now, channelId: `UC${user.userId}`, channelTitle: user.handle },
    status: {
      license: 'youtube',
      embeddable: true,
      publicStatsViewable: true,
      ...upload.status,
      ...uploadStatus,
      privacyStatus,
    },
  };
  upload.videoId = id;
  if (verdict) {
    const video: YouTubeVideo = { id, userId: user.userId, resource, published: null };
    state.youtube.videos.set(id, video);
    return video;
  }
  const published = state.published.record({
    platform: 'youtube',
    id,
    userId: user.userId,
    handle: user.handle,
    text: jsonText(upload.snippet.description),
    mediaUrls: [],
    mediaType: 'VIDEO',
    containerId: upload.uploadId,
    permalink: `https://www.youtube.com/watch?v=${id}`,
    createdAt: now,
    title: jsonText(upload.snippet.title),
    bytes: upload.size,
    details: {
      privacyStatus,
      askedPrivacyStatus: asked,
      selfDeclaredMadeForKids: upload.status.selfDeclaredMadeForKids,
      contentType: upload.contentType,
    },
  });
  const video: YouTubeVideo = { id, userId: user.userId, resource, published };
  state.youtube.videos.set(id, video);
  return video;
}

/** The image types thumbnails.set takes (https://developers.google.com/youtube/v3/docs/thumbnails/set: image/jpeg, image/png). */
const THUMBNAIL_TYPES = ['image/jpeg', 'image/png'];

/**
 * thumbnails.set: the image bytes for one of the channel's videos. What the image is comes from its
 * bytes (a JPEG or PNG signature), as YouTube reads it, whatever Content-Type it is sent with; an
 * image of another kind, or over 2 MB, is `invalidImage`.
 */
export async function setThumbnail(
  state: SandboxState,
  user: SandboxUser,
  videoId: string,
  contentType: string | undefined,
  body: AsyncIterable<Buffer>,
): Promise<{ response: Record<string, unknown>; read: number }> {
  const video = state.youtube.videos.get(videoId);
  if (!video?.published || video.userId !== user.userId)
    throw new YouTubeError(404, 'videoNotFound', 'The video that you are trying to update cannot be found.');
  if (!/^(image\/jpeg|image\/png|application\/octet-stream)/.test(contentType ?? ''))
    throw badRequest('invalidImage', 'The provided image content is invalid.');
  const { read, head } = await readImage(body);
  if (read === 0) throw badRequest('mediaBodyRequired', 'The request does not include the image content.');
  if (read > state.youtube.limits.maxThumbnailBytes)
    throw badRequest('invalidImage', 'The thumbnail image file is too large.');
  if (!THUMBNAIL_TYPES.includes(imageTypeOf(head)))
    throw badRequest('invalidImage', 'The provided image content is invalid.');
  if (!state.youtube.charge('thumbnail', state.now())) {
    throw new YouTubeError(
      403,
      'quotaExceeded',
      'The request cannot be completed because you have exceeded your quota.',
      'youtube.quota',
    );
  }
  video.published.details = { ...video.published.details, thumbnailBytes: read };
  const url = (size: string) => `https://i.ytimg.com/vi/${videoId}/${size}.jpg`;
  return {
    read,
    response: {
      kind: 'youtube#thumbnailSetResponse',
      etag: randomBytes(12).toString('base64url'),
      items: [
        {
          default: { url: url('default'), width: 120, height: 90 },
          medium: { url: url('mqdefault'), width: 320, height: 180 },
          high: { url: url('hqdefault'), width: 480, height: 360 },
        },
      ],
    },
  };
}

async function drain(body: AsyncIterable<Buffer>): Promise<number> {
  let read = 0;
  for await (const piece of body) read += piece.length;
  return read;
}

/** Reads an image body to its end, counting it and keeping its first bytes. */
async function readImage(body: AsyncIterable<Buffer>): Promise<{ read: number; head: Buffer }> {
  let read = 0;
  let head = Buffer.alloc(0);
  for await (const piece of body) {
    if (head.length < IMAGE_SNIFF_BYTES) head = Buffer.concat([head, piece]).subarray(0, IMAGE_SNIFF_BYTES);
    read += piece.length;
  }
  return { read, head };
}
