import { randomBytes } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { recordBodyBytes } from '../requests';
import type { SandboxState } from '../state';
import type { LinkedInAsset, LinkedInAssetKind } from './store';
import { LinkedInError, badRequest, memberOf, passFault, send, unprocessable } from './wire';
import { assertMayAuthor } from './organizations';

/** Where upload URLs point, under the LinkedIn prefix (www.linkedin.com/dms-uploads/… in real life). */
export const LINKEDIN_UPLOAD_PATH = '/dms-uploads';

const KINDS: Record<string, LinkedInAssetKind> = { images: 'image', videos: 'video', documents: 'document' };
const URN_KIND: Record<LinkedInAssetKind, string> = { image: 'image', video: 'video', document: 'document' };
/** Images API: JPG, GIF, PNG. Videos API: MP4. Documents API: PPT, PPTX, DOC, DOCX, PDF. */
const CONTENT_TYPES: Record<LinkedInAssetKind, RegExp> = {
  image: /^image\/(jpeg|png|gif)$/,
  video: /^video\/mp4$/,
  document:
    /^application\/(pdf|msword|vnd\.ms-powerpoint|vnd\.openxmlformats-officedocument\.(presentationml\.presentation|wordprocessingml\.document))$/,
};

/**
 * The Images, Videos and Documents APIs' uploads:
 * - initializeUpload: https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/images-api#initialize-image-upload,
 *   …/videos-api#initialize-video-upload (parts of 4 MiB for a file of 75 KB to 500 MB), …/documents-api#initialize-document-upload
 * - the PUT of each part (ETag answered), finalizeUpload (…/videos-api#finalize-video-upload: every part's ETag, in order)
 * - GET of an asset's status (PROCESSING until processing ends, then AVAILABLE).
 * Fault operations: initializeUpload `create`, PUT `upload`, status `status`, finalizeUpload `publish`.
 */
export function assetRoutes(router: Router, state: SandboxState): void {
  for (const [api, kind] of Object.entries(KINDS)) {
    router.post(`/rest/${api}`, (req: Request, res: Response) => {
      const action = typeof req.query.action === 'string' ? req.query.action : '';
      if (action === 'initializeUpload') return initializeUpload(state, req, res, kind);
      if (action === 'finalizeUpload' && kind === 'video') return finalizeUpload(state, req, res);
      throw badRequest(`Unknown action ${action.slice(0, 40)} on /rest/${api}`, 'ILLEGAL_ARGUMENT');
    });
    router.get(`/rest/${api}/:urn`, (req: Request, res: Response) => assetStatus(state, req, res, kind));
  }

  router.put(
    `${LINKEDIN_UPLOAD_PATH}/:key`,
    express.raw({ type: () => true, limit: state.linkedin.limits.videoMaxBytes + 1 }),
    (req: Request, res: Response) => uploadPart(state, req, res),
  );
}

function assetStatus(state: SandboxState, req: Request, res: Response, kind: LinkedInAssetKind): void {
  const user = memberOf(state, req);
  if (!passFault(state, 'status', res)) return;
  const asset = state.linkedin.assets.get(String(req.params.urn));
  if (!asset || asset.kind !== kind || asset.userId !== user.userId)
    throw new LinkedInError(404, 'NOT_FOUND', `${String(req.params.urn).slice(0, 80)} was not found`);
  if (asset.status === 'PROCESSING' && asset.availableAt !== null && asset.availableAt <= state.now())
    asset.status = 'AVAILABLE';
  send(state, res, 200, { id: asset.urn, owner: asset.owner, status: asset.status });
}

function initializeUpload(state: SandboxState, req: Request, res: Response, kind: LinkedInAssetKind): void {
  const user = memberOf(state, req);
  if (!passFault(state, 'create', res)) return;
  const request = (req.body as { initializeUploadRequest?: Record<string, unknown> } | undefined)
    ?.initializeUploadRequest;
  if (!request || typeof request.owner !== 'string')
    throw unprocessable('/initializeUploadRequest/owner :: field is required but not found', 'FIELD_REQUIRED');
  assertMayAuthor(state, user, request.owner);
  const l = state.linkedin.limits;
  const size = Number(request.fileSizeBytes);
  if (kind === 'video' && (!Number.isInteger(size) || size < l.videoMinBytes || size > l.videoMaxBytes))
    throw unprocessable(
      `fileSizeBytes must be between ${l.videoMinBytes} and ${l.videoMaxBytes}`,
      'INVALID_VIDEO_SIZE',
    );
  const urn = `urn:li:${URN_KIND[kind]}:${idPart()}`;
  const partBytes = kind === 'video' ? l.videoPartBytes : Number.MAX_SAFE_INTEGER;
  const total = kind === 'video' ? size : 0;
  const parts: LinkedInAsset['parts'] = [];
  for (let first = 0; first < total || (total === 0 && parts.length === 0); first += partBytes)
    parts.push({
      firstByte: first,
      lastByte: Math.min(first + partBytes, total) - 1,
      key: idPart(),
      bytes: null,
      etag: null,
    });
  const asset: LinkedInAsset = {
    urn,
    kind,
    owner: request.owner,
    userId: user.userId,
    declaredBytes: kind === 'video' ? size : null,
    parts,
    uploadToken: kind === 'video' && parts.length > 1 ? idPart() : '',
    contentType: null,
    status: 'WAITING_UPLOAD',
    availableAt: null,
    postUrn: null,
  };
  state.linkedin.assets.set(urn, asset);
  const url = (key: string) => `${req.protocol}://${req.get('host')}/linkedin${LINKEDIN_UPLOAD_PATH}/${key}`;
  const expiresAt = state.now() + 24 * 3600_000;
  const value =
    kind === 'video'
      ? {
          uploadUrlsExpireAt: expiresAt,
          video: urn,
          uploadInstructions: parts.map((p) => ({
            uploadUrl: url(p.key),
            firstByte: p.firstByte,
            lastByte: p.lastByte,
          })),
          uploadToken: asset.uploadToken,
        }
      : { uploadUrlExpiresAt: expiresAt, uploadUrl: url(parts[0].key), [kind]: urn };
  send(state, res, 200, { value });
}

function uploadPart(state: SandboxState, req: Request, res: Response): void {
  const user = memberOf(state, req);
  if (!passFault(state, 'upload', res)) return;
  const found = state.linkedin.partOf(String(req.params.key));
  if (!found || found.asset.userId !== user.userId)
    throw new LinkedInError(404, 'NOT_FOUND', 'The upload URL is not known or has expired');
  const { asset, index } = found;
  const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  recordBodyBytes(res, body.length);
  const l = state.linkedin.limits;
  const part = asset.parts[index];
  const type = String(req.get('content-type') ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (asset.kind !== 'video' && !CONTENT_TYPES[asset.kind].test(type))
    throw badRequest(
      `A ${asset.kind} upload must be ${CONTENT_TYPES[asset.kind].source}; got ${type || 'none'}`,
      'INVALID_MEDIA_TYPE',
    );
  if (asset.kind === 'video' && body.length !== part.lastByte - part.firstByte + 1)
    throw badRequest(
      `Part ${index + 1} must be bytes ${part.firstByte}-${part.lastByte}; got ${body.length} bytes`,
      'INVALID_PART_SIZE',
    );
  const max =
    asset.kind === 'image' ? l.imageMaxBytes : asset.kind === 'document' ? l.documentMaxBytes : l.videoMaxBytes;
  if (body.length === 0 || body.length > max)
    throw badRequest(`A ${asset.kind} is 1 to ${max} bytes; got ${body.length}`, 'INVALID_MEDIA_SIZE');
  part.bytes = body.length;
  part.etag = `/ambry-video/${idPart()}`;
  asset.contentType = type || asset.contentType;
  // Images and documents are complete with their one part; a video waits for finalizeUpload.
  if (asset.kind !== 'video') markProcessing(state, asset);
  send(state, res, 201, undefined, asset.kind === 'video' ? { etag: part.etag } : {});
}

function finalizeUpload(state: SandboxState, req: Request, res: Response): void {
  const user = memberOf(state, req);
  if (!passFault(state, 'publish', res)) return;
  const f = (req.body as { finalizeUploadRequest?: Record<string, unknown> } | undefined)?.finalizeUploadRequest;
  const asset = typeof f?.video === 'string' ? state.linkedin.assets.get(f.video) : undefined;
  if (!f || !asset || asset.kind !== 'video' || asset.userId !== user.userId)
    throw unprocessable(
      '/finalizeUploadRequest/video :: an uploaded video of this member is required',
      'FIELD_REQUIRED',
    );
  if (asset.status !== 'WAITING_UPLOAD') return send(state, res, 200, {});
  if ((typeof f.uploadToken === 'string' ? f.uploadToken : '') !== asset.uploadToken)
    throw badRequest('uploadToken does not match the upload', 'INVALID_UPLOAD_TOKEN');
  const ids = Array.isArray(f.uploadedPartIds) ? f.uploadedPartIds.map(String) : [];
  const expected = asset.parts.map((p) => p.etag);
  if (expected.some((e) => e === null) || ids.length !== expected.length || ids.some((id, i) => id !== expected[i]))
    throw badRequest('uploadedPartIds must list the ETag of every uploaded part, in order', 'INVALID_PART_IDS');
  markProcessing(state, asset);
  send(state, res, 200, {});
}

function markProcessing(state: SandboxState, asset: LinkedInAsset): void {
  const delay = state.linkedin.limits.processingMs || state.settingsFor('linkedin').processingDelayMs;
  asset.status = state.linkedin.limits.processingFails ? 'PROCESSING_FAILED' : delay > 0 ? 'PROCESSING' : 'AVAILABLE';
  asset.availableAt = state.now() + delay;
}

function idPart(): string {
  return randomBytes(9).toString('base64url').replace(/[-_]/g, 'x');
}
