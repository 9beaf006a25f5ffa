import express, { type Express, type Request, type RequestHandler } from 'express';
import { MEDIA_FILES_PATH, MEDIA_UPLOADS_PATH, Routes, type Principal, type Scope } from '@postbus/contracts';
import { errorHandler, notFound } from '../http/errors';
import { receiveMultipartFile } from '../http/receive-multipart';
import { requestContext } from '../http/request-context';
import { serveFile } from '../http/serve-file.route';
import type { MediaPorts } from '../library/media-ports';
import { uploadMedia } from '../library/upload-media.use-case';
import { receiveUpload, type UploadUrlPorts } from '../library/upload-url';
import type { RenditionPorts } from '../renditions/rendition-ports';
import { storeRendition } from '../renditions/store-rendition.use-case';
import { RENDITION_UPLOAD_PATH } from '../renditions/upload-signer';

/**
 * Media's own listener, for what cannot travel as RPC: the streamed multipart upload and the
 * signed file URLs. The gateway proxies both (or an Ingress routes them here straight), so the
 * upload authenticates its caller itself.
 */
export function createHttpApp(
  ports: MediaPorts & RenditionPorts & UploadUrlPorts,
  auth: (scope: Scope) => RequestHandler,
): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestContext);

  app.post(Routes.uploadMedia.path, auth(Routes.uploadMedia.scope), async (req, res) => {
    const principal = req.user as Principal;
    const result = await uploadMedia(
      ports,
      principal,
      (limits) => receiveMultipartFile(req, res, ports.store, limits),
      baseUrlOf(req, ports.publicBaseUrl),
    );
    res.status(Routes.uploadMedia.status).json(result);
  });
  app.get(`${MEDIA_FILES_PATH}/:mediaId`, serveFile(ports));
  // A file PUT to an upload URL media signed (no key: the signed token is the grant), as raw bytes.
  app.put(`${MEDIA_UPLOADS_PATH}/:token`, async (req, res) => {
    res
      .status(201)
      .json(await receiveUpload(ports, String(req.params.token), req, baseUrlOf(req, ports.publicBaseUrl)));
  });
  // The transcoder's made renditions, on a path media signed for it (no key: the signature is the grant).
  app.put(RENDITION_UPLOAD_PATH, async (req, res) => {
    const renditionId = String(req.params.renditionId);
    ports.renditionUploads.verify(renditionId, req.query.expires, req.query.sig);
    res.status(201).json(await storeRendition(ports, renditionId, req));
  });

  app.use(notFound);
  app.use(errorHandler(ports.logger));
  return app;
}

/** The gateway names the {base_url} it serves in X-Forwarded-Prefix; without it, the configured one. */
function baseUrlOf(req: Request, fallback: string): string {
  const given = req.header('x-forwarded-prefix');
  if (!given) return fallback;
  try {
    const url = new URL(given);
    return url.protocol === 'http:' || url.protocol === 'https:' ? given.replace(/\/+$/, '') : fallback;
  } catch {
    return fallback;
  }
}
