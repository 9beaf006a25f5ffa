import type { Logger } from '@postbus/kit';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { recordBodyBytes } from '../requests';
import type { SandboxState } from '../state';
import { queryText } from '../wire-text';
import {
  sendTikTok,
  tiktokAuth,
  tiktokErrorHandler,
  tiktokFault,
  tiktokGate,
  tiktokRateLimit,
  tiktokUser,
} from './http';
import { creatorInfo, initPhoto, initVideo, publishStatus } from './posts';
import { receiveChunk } from './upload';

/** Where uploads go, relative to the sandbox root (`open-upload.tiktokapis.com`). */
export const TIKTOK_UPLOAD_PATH = '/tiktok-upload';

/** open.tiktokapis.com (`/tiktok`): the Content Posting API's direct-post endpoints. */
export function tiktokRouter(state: SandboxState, logger: Logger): Router {
  const router = Router();
  const gate = [express.json(), ...tiktokGate(state), tiktokAuth(state)];
  const base = '/v2/post/publish';

  router.post(
    `${base}/creator_info/query/`,
    gate,
    tiktokRateLimit(state, 'creatorInfo'),
    tiktokFault(state, 'read'),
    (_req: Request, res: Response) => {
      sendTikTok(state, res, creatorInfo(state, tiktokUser(res)));
    },
  );

  router.post(
    `${base}/video/init/`,
    gate,
    tiktokRateLimit(state, 'init'),
    (req: Request, res: Response, next: NextFunction) => {
      const pull =
        (req.body as { source_info?: { source?: unknown } } | undefined)?.source_info?.source === 'PULL_FROM_URL';
      tiktokFault(state, pull ? 'publish' : 'create')(req, res, next);
    },
    (req: Request, res: Response) => {
      const publish = initVideo(state, tiktokUser(res), jsonBody(req));
      const uploadUrl =
        publish.source === 'FILE_UPLOAD'
          ? `${req.protocol}://${req.get('host')}${TIKTOK_UPLOAD_PATH}/video/?upload_id=${publish.uploadId}&upload_token=${publish.uploadToken}`
          : undefined;
      sendTikTok(state, res, { publish_id: publish.publishId, ...(uploadUrl && { upload_url: uploadUrl }) });
    },
  );

  router.post(
    `${base}/content/init/`,
    gate,
    tiktokRateLimit(state, 'init'),
    tiktokFault(state, 'publish'),
    (req: Request, res: Response) => {
      const publish = initPhoto(state, tiktokUser(res), jsonBody(req));
      sendTikTok(state, res, { publish_id: publish.publishId });
    },
  );

  router.post(
    `${base}/status/fetch/`,
    gate,
    tiktokRateLimit(state, 'status'),
    tiktokFault(state, 'status'),
    (req: Request, res: Response) => {
      sendTikTok(state, res, publishStatus(state, tiktokUser(res), jsonBody(req)));
    },
  );

  router.use(tiktokErrorHandler(state, logger));
  return router;
}

/** open-upload.tiktokapis.com (`/tiktok-upload`): chunk PUTs, authorised by the upload URL itself. */
export function tiktokUploadRouter(state: SandboxState, logger: Logger): Router {
  const router = Router();
  router.put('/video/', ...tiktokGate(state), tiktokFault(state, 'upload'), async (req: Request, res: Response) => {
    const { status, read } = await receiveChunk(
      state,
      { uploadId: queryText(req.query.upload_id), uploadToken: queryText(req.query.upload_token) },
      { contentRange: req.get('content-range'), contentType: req.get('content-type') },
      req,
    );
    recordBodyBytes(res, read);
    if (res.locals.swallowAnswer) return state.held.hold(res);
    res.status(status).end();
  });
  router.use(tiktokErrorHandler(state, logger));
  return router;
}

/** The JSON object express.json() parsed, or {} when the body was empty. */
function jsonBody(req: Request): Record<string, unknown> {
  return (req.body as Record<string, unknown> | undefined) ?? {};
}
