import type { Router, Request, Response } from 'express';
import { readMultipart, type MultipartPart } from '../multipart';
import { recordBodyBytes } from '../requests';
import type { SandboxState } from '../state';
import { countCall, invalidRequest, passFault, send, xUser, XProblemError } from './http';
import type { XMediaRecord } from './store';

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/bmp', 'image/pjpeg', 'image/tiff'];
const VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'];
const CATEGORIES = ['tweet_image', 'tweet_gif', 'tweet_video', 'amplify_video'];

/**
 * The fields of an upload or append: multipart/form-data (`media` as bytes) or JSON (`media` as
 * base64), the two bodies X's API reference gives (https://docs.x.com/x-api/media/append-media-upload).
 */
function uploadFields(res: Response, req: Request): Map<string, MultipartPart> {
  const body: unknown = req.body;
  if (Buffer.isBuffer(body)) {
    recordBodyBytes(res, body.length);
    return parseMultipart(body, req.get('content-type') ?? '');
  }
  if (!body || typeof body !== 'object') throw invalidRequest('The request must be multipart/form-data or JSON.');
  const parts = new Map<string, MultipartPart>();
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const data = name === 'media' ? Buffer.from(String(value), 'base64') : Buffer.from(String(value));
    parts.set(name, { name, data });
  }
  recordBodyBytes(res, parts.get('media')?.data.length ?? 0);
  return parts;
}

/** The parts by name (the last of a repeated name wins). */
function parseMultipart(body: Buffer, contentType: string): Map<string, MultipartPart> {
  const parts = readMultipart(body, contentType, () => invalidRequest('The multipart body has no boundary.'));
  return new Map(parts.map((part) => [part.name, part]));
}

/** The image type the first bytes show (JPEG, PNG, GIF, WebP); '' for anything else. */
function sniffImage(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  return '';
}

function mediaMax(state: SandboxState, category: string): number {
  const l = state.x.limits;
  return category === 'tweet_gif' ? l.gifMaxBytes : category.endsWith('video') ? l.videoMaxBytes : l.imageMaxBytes;
}

function mediaOf(state: SandboxState, id: string, userId: string): XMediaRecord {
  const m = state.x.media.get(id);
  if (!m || m.userId !== userId) throw invalidRequest(`media_id ${id} is not an upload of this user.`);
  return m;
}

/** `processing_info` while a video is processed: https://docs.x.com/x-api/media/get-media-upload-status */
function mediaBody(state: SandboxState, m: XMediaRecord): Record<string, unknown> {
  const key = `${m.category === 'tweet_image' ? 3 : m.category === 'tweet_gif' ? 16 : 7}_${m.id}`;
  const base = { id: m.id, media_key: key, size: m.totalBytes, expires_after_secs: 86_400 };
  if (!m.category.endsWith('video') && m.category !== 'tweet_gif') return base;
  const now = state.now();
  const state_ = m.failed ? 'failed' : now >= m.readyAt ? 'succeeded' : 'in_progress';
  return {
    ...base,
    processing_info: {
      state: state_,
      ...(state_ === 'in_progress' && { check_after_secs: 1, progress_percent: 50 }),
      ...(state_ === 'failed' && { error: { code: 1, name: 'InvalidMedia', message: m.failed } }),
      ...(state_ === 'succeeded' && { progress_percent: 100 }),
    },
  };
}

/**
 * X media upload v2 (https://docs.x.com/x-api/media/media-upload): one-call image upload
 * (`POST /2/media/upload`, multipart `media`), chunked upload (`/initialize` JSON, `/{id}/append`
 * multipart `segment_index` + `media` of at most 5 MB, `/{id}/finalize`) and
 * `GET /2/media/upload?command=STATUS&media_id=`. Needs `media.write`. Fault operations: upload
 * and chunks `upload`, finalize `create`, status `status`.
 */
export function xMediaRoutes(router: Router, state: SandboxState): void {
  imageUploadRoute(router, state);
  chunkedUploadRoutes(router, state);
}

/** https://docs.x.com/x-api/media/media-upload: one image in one call. */
function imageUploadRoute(router: Router, state: SandboxState): void {
  router.post('/2/media/upload', (req: Request, res) => {
    const user = xUser(state, req, ['media.write']);
    if (!passFault(state, 'upload', res)) return;
    countCall(state, res, `${user.userId} upload`, 500);
    const parts = uploadFields(res, req);
    const media = parts.get('media');
    if (!media?.data.length) throw invalidRequest('media is required.');
    const category = parts.get('media_category')?.data.toString() ?? 'tweet_image';
    // X reads the kind from the bytes; a part's own type stands in for bytes no known image starts with.
    const type = sniffImage(media.data) || media.contentType || '';
    if (category !== 'tweet_image' || !IMAGE_TYPES.includes(type))
      throw invalidRequest(
        'The one-call upload takes images only; upload GIFs and videos in chunks (initialize, append, finalize).',
      );
    if (media.data.length > state.x.limits.imageMaxBytes)
      throw invalidRequest(`Image file size must be <= ${state.x.limits.imageMaxBytes} bytes.`);
    const m = record(state, user.userId, category, type, media.data.length);
    m.finalized = true;
    send(state, res, 200, { data: mediaBody(state, m) });
  });
}

/** Initialize, append, finalize and STATUS: https://docs.x.com/x-api/media/initialize-media-upload and the pages beside it. */
function chunkedUploadRoutes(router: Router, state: SandboxState): void {
  router.post('/2/media/upload/initialize', (req: Request, res) => {
    const user = xUser(state, req, ['media.write']);
    if (!passFault(state, 'upload', res)) return;
    const b = (req.body ?? {}) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const type = str(b.media_type) ?? '';
    const total = Number(b.total_bytes);
    const category = str(b.media_category) ?? (type.startsWith('video/') ? 'tweet_video' : 'tweet_image');
    if (!CATEGORIES.includes(category)) throw invalidRequest(`media_category ${category} is not one X knows.`);
    const kindOk =
      category === 'tweet_gif'
        ? type === 'image/gif'
        : category.endsWith('video')
          ? VIDEO_TYPES.includes(type)
          : IMAGE_TYPES.includes(type);
    if (!kindOk) throw invalidRequest(`media_type ${type} does not fit media_category ${category}.`);
    if (!Number.isInteger(total) || total <= 0) throw invalidRequest('total_bytes must be a positive integer.');
    if (total > mediaMax(state, category))
      throw invalidRequest(`File size exceeds ${mediaMax(state, category)} bytes for ${category}.`);
    const m = record(state, user.userId, category, type, total);
    send(state, res, 200, { data: { id: m.id, media_key: mediaBody(state, m).media_key, expires_after_secs: 86_400 } });
  });

  router.post('/2/media/upload/:id/append', (req: Request<{ id: string }>, res) => {
    const user = xUser(state, req, ['media.write']);
    if (!passFault(state, 'upload', res)) return;
    const m = mediaOf(state, req.params.id, user.userId);
    if (m.finalized) throw invalidRequest('The upload is already finalized.');
    const parts = uploadFields(res, req);
    const index = Number(parts.get('segment_index')?.data.toString());
    const media = parts.get('media');
    if (!Number.isInteger(index) || index < 0 || index > 999) throw invalidRequest('segment_index must be 0 to 999.');
    if (!media?.data.length) throw invalidRequest('media is required.');
    m.segments.set(index, media.data.length);
    send(state, res, 200, { data: { expires_at: Math.floor(state.now() / 1000) + 86_400 } });
  });

  router.post('/2/media/upload/:id/finalize', (req: Request<{ id: string }>, res) => {
    const user = xUser(state, req, ['media.write']);
    if (!passFault(state, 'create', res)) return;
    const m = mediaOf(state, req.params.id, user.userId);
    const got = [...m.segments.values()].reduce((a, b) => a + b, 0);
    const contiguous = [...m.segments.keys()].sort((a, b) => a - b).every((k, i) => k === i);
    if (!contiguous || got !== m.totalBytes)
      throw invalidRequest(
        `File size mismatch: received ${got} of ${m.totalBytes} bytes in ${m.segments.size} segments.`,
      );
    m.finalized = true;
    const delay = state.x.limits.videoProcessingMs || state.settingsFor('x').processingDelayMs;
    m.readyAt = state.now() + (m.category.endsWith('video') ? delay : 0);
    send(state, res, 200, { data: mediaBody(state, m) });
  });

  router.get('/2/media/upload', (req: Request, res) => {
    const user = xUser(state, req, ['media.write']);
    if (!passFault(state, 'status', res)) return;
    if (req.query.command !== 'STATUS') throw invalidRequest('command must be STATUS.');
    const m = mediaOf(state, typeof req.query.media_id === 'string' ? req.query.media_id : '', user.userId);
    send(state, res, 200, { data: mediaBody(state, m) });
  });
}

function record(state: SandboxState, userId: string, category: string, contentType: string, totalBytes: number) {
  const m: XMediaRecord = {
    id: state.x.nextId(),
    userId,
    category,
    contentType,
    totalBytes,
    segments: new Map(),
    finalized: false,
    readyAt: state.now(),
    failed: null,
    usedBy: null,
  };
  state.x.media.set(m.id, m);
  return m;
}

/** Whether a media id may be attached now: finalized, processed, not used before. */
export function assertAttachable(state: SandboxState, userId: string, id: string): XMediaRecord {
  const m = state.x.media.get(id);
  if (!m || m.userId !== userId) throw invalidRequest(`Your media IDs are invalid: ${id}.`);
  if (!m.finalized || m.failed || state.now() < m.readyAt)
    throw new XProblemError(400, 'Invalid Request', `Media ${id} is not ready: it is still being processed or failed.`);
  return m;
}
