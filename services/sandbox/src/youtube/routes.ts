import type { Logger } from '@postbus/kit';
import express, { Router, type Request, type Response } from 'express';
import { recordBodyBytes } from '../requests';
import type { SandboxState } from '../state';
import { queryText } from '../wire-text';
import { passYouTubeFault, youtubeAuth, youtubeErrorHandler, youtubeGate, youtubeUser } from './http';
import { openUpload, receiveUploadBytes, setThumbnail } from './uploads';

/** www.googleapis.com (`/youtube`): resumable videos.insert and thumbnails.set under /upload/youtube/v3. */
export function youtubeRouter(state: SandboxState, logger: Logger): Router {
  const router = Router();
  const upload = '/upload/youtube/v3';

  router.post(
    `${upload}/videos`,
    express.json(),
    ...youtubeGate(state),
    youtubeAuth(state),
    (req: Request, res: Response) => {
      if (!passYouTubeFault(state, 'create', res)) return;
      const session = openUpload(
        state,
        youtubeUser(res),
        req.query,
        { length: req.get('x-upload-content-length'), type: req.get('x-upload-content-type') },
        req.body,
      );
      if (res.locals.swallowAnswer) return state.held.hold(res);
      const location = `${req.protocol}://${req.get('host')}${req.baseUrl}${upload}/videos?uploadType=resumable&upload_id=${session.uploadId}`;
      res.status(200).set('location', location).set('x-guploader-uploadid', session.uploadId).end();
    },
  );

  router.put(`${upload}/videos`, ...youtubeGate(state), youtubeAuth(state), async (req: Request, res: Response) => {
    const range = req.get('content-range');
    const completes = /^bytes \d+-(\d+)\/(\d+)$/.exec(range ?? '');
    const operation = completes && Number(completes[1]) + 1 === Number(completes[2]) ? 'publish' : 'upload';
    if (!/^bytes \*/.test(range ?? '') && !passYouTubeFault(state, operation, res)) return;
    const { answer, read } = await receiveUploadBytes(
      state,
      youtubeUser(res),
      queryText(req.query.upload_id),
      range,
      req,
    );
    recordBodyBytes(res, read);
    if (res.locals.swallowAnswer) return state.held.hold(res);
    if (answer.status === 308) {
      if (answer.range) res.set('range', answer.range);
      res.status(308).end();
      return;
    }
    res.status(answer.status).json(answer.video);
  });

  router.post(
    `${upload}/thumbnails/set`,
    ...youtubeGate(state),
    youtubeAuth(state),
    async (req: Request, res: Response) => {
      if (!passYouTubeFault(state, 'read', res)) return;
      const { response, read } = await setThumbnail(
        state,
        youtubeUser(res),
        queryText(req.query.videoId),
        req.get('content-type'),
        req,
      );
      recordBodyBytes(res, read);
      if (res.locals.swallowAnswer) return state.held.hold(res);
      res.json(response);
    },
  );

  router.use(youtubeErrorHandler(state, logger));
  return router;
}
