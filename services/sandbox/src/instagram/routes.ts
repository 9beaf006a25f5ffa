import type { Logger } from '@postbus/kit';
import express, { Router, type Request, type Response } from 'express';
import { objectNotFound } from '../meta/graph-error';
import {
  authenticate,
  currentUser,
  faultGate,
  graphErrorHandler,
  graphFields,
  graphParams,
  passFault,
  sendGraph,
} from '../meta/graph-http';
import { metaPlatformGate } from '../meta/platform-gate';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import { createInstagramContainer } from './containers';
import { isInstagramContainer, readInstagramObject, userInstagramMedia } from './objects';
import { inspectReelLater } from './reel-inspection';
import { instagramPublishingLimit, publishInstagramContainer } from './publishing';

/** The Instagram Graph API (`/instagram/v21.0`): containers, status, media_publish, permalink, the user's media, publishing limit. */
export function instagramRouter(state: SandboxState, logger: Logger): Router {
  const router = Router();
  const gate = [
    express.urlencoded({ extended: false }),
    express.json(),
    ...metaPlatformGate(state, 'instagram'),
    authenticate(state, 'instagram'),
  ];

  router.post(
    '/:userId/media',
    gate,
    faultGate(state, 'instagram', 'create'),
    (req: Request<{ userId: string }>, res: Response) => {
      const container = createInstagramContainer(state, pathUser(res, req.params.userId), graphParams(req));
      inspectReelLater(state, container, logger);
      sendGraph(state, res, 200, { id: container.id });
    },
  );

  router.post(
    '/:userId/media_publish',
    gate,
    faultGate(state, 'instagram', 'publish'),
    (req: Request<{ userId: string }>, res: Response) => {
      const media = publishInstagramContainer(state, pathUser(res, req.params.userId), graphParams(req).creation_id);
      sendGraph(state, res, 200, { id: media.id });
    },
  );

  // https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media: the user's media, newest first.
  router.get(
    '/:userId/media',
    gate,
    faultGate(state, 'instagram', 'read'),
    (req: Request<{ userId: string }>, res: Response) => {
      sendGraph(state, res, 200, {
        data: userInstagramMedia(state, pathUser(res, req.params.userId, 'get'), graphParams(req)),
      });
    },
  );

  router.get(
    '/:userId/content_publishing_limit',
    gate,
    faultGate(state, 'instagram', 'read'),
    (req: Request<{ userId: string }>, res: Response) => {
      sendGraph(state, res, 200, instagramPublishingLimit(state, pathUser(res, req.params.userId)));
    },
  );

  router.get('/:id', gate, (req: Request<{ id: string }>, res: Response) => {
    if (!passFault(state, 'instagram', isInstagramContainer(state, req.params.id) ? 'status' : 'read', res)) return;
    sendGraph(
      state,
      res,
      200,
      readInstagramObject(state, currentUser(res), req.params.id, graphFields(graphParams(req))),
    );
  });

  router.use(graphErrorHandler(state, logger));
  return router;
}

function pathUser(res: Response, userId: string, method: 'get' | 'post' = 'post'): SandboxUser {
  const user = currentUser(res);
  if (userId !== 'me' && userId !== user.userId) throw objectNotFound(method, userId);
  return user;
}
