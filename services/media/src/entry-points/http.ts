import express, { type Express, type Request, type RequestHandler } from 'express';
import { MEDIA_FILES_PATH, Routes, type Principal, type Scope } from '@postbus/contracts';
import { errorHandler, notFound } from '../http/errors';
import { receiveMultipartFile } from '../http/receive-multipart';
import { requestContext } from '../http/request-context';
import { serveFile } from '../http/serve-file.route';
import type { MediaPorts } from '../library/media-ports';
import { uploadMedia } from '../library/upload-media.use-case';

/**
 * Media's own listener, for what cannot travel as RPC: the streamed multipart upload and the
 * signed file URLs. The gateway proxies both (or an Ingress routes them here straight), so the
 * upload authenticates its caller itself.
 */
export function createHttpApp(ports: MediaPorts, auth: (scope: Scope) => RequestHandler): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestContext);

  app.post(Routes.uploadMedia.path, auth(Routes.uploadMedia.scope), async (req, res) => {
    const principal = req.user as Principal;
    const result = await uploadMedia(ports, principal, (limits) => receiveMultipartFile(req, res, ports.store, limits), baseUrlOf(req, ports.publicBaseUrl));
    res.status(Routes.uploadMedia.status).json(result);
  });
  app.get(`${MEDIA_FILES_PATH}/:mediaId`, serveFile(ports));

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
