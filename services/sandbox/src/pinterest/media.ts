import { randomBytes } from 'node:crypto';
import { Router, type Request } from 'express';
import { rawMultipart, readMultipart } from '../multipart';
import { recordBodyBytes, recordRequests } from '../requests';
import type { SandboxState } from '../state';
import { authed, badRequest, errorHandler, passFault, PinterestError, send } from './wire';

/**
 * Video uploads (https://developers.pinterest.com/docs/api/v5/media-create, media-get): POST /v5/media
 * registers one and answers an `upload_url` with `upload_parameters` for a multipart POST to S3 (here
 * `/pinterest-upload/{media_id}`); the upload then processes for the platform's processing delay
 * before GET /v5/media/{id} says `succeeded`.
 */
export function pinterestMediaRoutes(router: Router, state: SandboxState): void {
  router.post('/v5/media', (req, res) => {
    if (!passFault(state, 'create', res)) return;
    const user = authed(state, req, 'pins:write');
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (body.media_type !== 'video') throw badRequest('media_type must be video.');
    const id = state.ids.numeric();
    const uploadParameters = {
      'x-amz-date': new Date(state.now()).toISOString().replace(/[-:]/g, '').replace(/\.\d+/, ''),
      'x-amz-signature': randomBytes(32).toString('hex'),
      'x-amz-security-token': randomBytes(24).toString('base64url'),
      'x-amz-algorithm': 'AWS4-HMAC-SHA256',
      key: `uploads/${id}/video.mp4`,
      policy: randomBytes(48).toString('base64'),
      'x-amz-credential': `SANDBOX/${new Date(state.now()).toISOString().slice(0, 10)}/us-east-1/s3/aws4_request`,
      'Content-Type': 'multipart/form-data',
    };
    state.pinterest.media.set(id, {
      id,
      userId: user.userId,
      status: 'registered',
      uploadParameters,
      bytes: 0,
      readyAt: null,
    });
    send(state, res, 201, {
      media_id: id,
      media_type: 'video',
      upload_url: `${req.protocol}://${req.get('host')}/pinterest-upload/${id}`,
      upload_parameters: uploadParameters,
    });
  });
  router.get('/v5/media/:mediaId', (req: Request<{ mediaId: string }>, res) => {
    if (!passFault(state, 'status', res)) return;
    const user = authed(state, req, 'pins:read');
    const media = state.pinterest.media.get(req.params.mediaId);
    if (!media || media.userId !== user.userId) throw new PinterestError(404, 404, 'Media not found.');
    if (media.status === 'processing' && media.readyAt !== null && media.readyAt <= state.now())
      media.status = state.pinterest.limits.failVideoProcessing ? 'failed' : 'succeeded';
    send(state, res, 200, { media_id: media.id, media_type: 'video', status: media.status });
  });
}

/** The S3 side of an upload: a multipart form with every upload parameter and then `file`; 204 as S3 answers. */
export function pinterestUploadRouter(state: SandboxState): Router {
  const router = Router();
  router.post(
    '/:mediaId',
    rawMultipart(state.pinterest.limits.videoMaxBytes + 1024 * 1024),
    recordRequests(state.requests, 'pinterest', () => state.now()),
    (req: Request<{ mediaId: string }>, res) => {
      if (!passFault(state, 'upload', res)) return;
      const media = state.pinterest.media.get(req.params.mediaId);
      if (!media) throw new PinterestError(404, 404, 'NoSuchUpload');
      if (!Buffer.isBuffer(req.body)) throw badRequest('The upload must be multipart/form-data.');
      recordBodyBytes(res, req.body.length);
      const parts = parseMultipart(req.body, req.get('content-type') ?? '');
      for (const [name, value] of Object.entries(media.uploadParameters))
        if (parts.get(name)?.toString('utf8') !== value)
          throw new PinterestError(403, 403, `AccessDenied: ${name} does not match the upload parameters.`);
      const names = [...parts.keys()];
      if (names[names.length - 1] !== 'file') throw badRequest('The file must be the last field of the form.');
      const file = parts.get('file')!;
      if (!file.length) throw badRequest('The file is empty.');
      media.bytes = file.length;
      media.status = 'processing';
      media.readyAt = state.now() + state.settingsFor('pinterest').processingDelayMs;
      send(state, res, 204, undefined);
    },
  );
  router.use(errorHandler());
  return router;
}

/** Form fields by name (the last of a repeated name wins; a part without a name is no field). */
function parseMultipart(body: Buffer, contentType: string): Map<string, Buffer> {
  const parts = readMultipart(body, contentType, () => badRequest('The upload has no multipart boundary.'));
  return new Map(parts.filter((part) => part.name).map((part) => [part.name, part.data]));
}
