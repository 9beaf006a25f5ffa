import type { Logger } from '@postbus/kit';
import express, { Router, type Request } from 'express';
import {
  authenticate,
  currentUser,
  faultGate,
  graphErrorHandler,
  graphFields,
  graphParams,
  passFault,
  sendGraph,
  unknownGraphPath,
} from '../meta/graph-http';
import { objectNotFound } from '../meta/graph-error';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import { createContainer } from './containers';
import { isContainerId, readObject } from './objects';
import { publishContainer, publishingLimit } from './publishing';

/** The Threads Graph API (`/threads/v1.0`): containers, status, publish, permalink, publishing limit. */
export function threadsRouter(state: SandboxState, logger: Logger): Router {
  const router = Router();
  router.use(express.urlencoded({ extended: false }), express.json());
  router.use(authenticate(state, 'threads'));

  router.post('/:userId/threads', faultGate(state, 'threads', 'create'), (req: Request<{ userId: string }>, res) => {
    const user = pathUser(res, req.params.userId, 'post');
    const container = createContainer(state, user, graphParams(req));
    sendGraph(state, res, 200, { id: container.id });
  });

  router.post('/:userId/threads_publish', faultGate(state, 'threads', 'publish'), (req: Request<{ userId: string }>, res) => {
    const user = pathUser(res, req.params.userId, 'post');
    const media = publishContainer(state, user, graphParams(req).creation_id);
    sendGraph(state, res, 200, { id: media.id });
  });

  router.get('/:userId/threads_publishing_limit', faultGate(state, 'threads', 'read'), (req: Request<{ userId: string }>, res) => {
    const user = pathUser(res, req.params.userId, 'get');
    sendGraph(state, res, 200, publishingLimit(state, user, graphFields(graphParams(req))));
  });

  router.get('/:id', (req, res) => {
    const operation = isContainerId(state, req.params.id) ? 'status' : 'read';
    if (!passFault(state, 'threads', operation, res)) return;
    sendGraph(state, res, 200, readObject(state, currentUser(res), req.params.id, graphFields(graphParams(req))));
  });

  router.use(unknownGraphPath());
  router.use(graphErrorHandler(state, logger));
  return router;
}

/** `me` or the token's own user id; any other id "does not exist" for this token. */
function pathUser(res: express.Response, userId: string, method: 'get' | 'post'): SandboxUser {
  const user = currentUser(res);
  if (userId !== 'me' && userId !== user.userId) throw objectNotFound(method, userId);
  return user;
}
