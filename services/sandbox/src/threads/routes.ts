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
import { isContainerId, readObject, userThreads } from './objects';
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

  // A reply's publish is a comment for fault injection, so a test can lose a reply's answer without touching the post's.
  const publishFault: express.RequestHandler = (req, res, next) => {
    const isReply = Boolean(state.threads.containers.get(graphParams(req).creation_id ?? '')?.replyToId);
    if (passFault(state, 'threads', isReply ? 'comment' : 'publish', res)) next();
  };
  router.post('/:userId/threads_publish', publishFault, (req: Request<{ userId: string }>, res) => {
    const user = pathUser(res, req.params.userId, 'post');
    const media = publishContainer(state, user, graphParams(req).creation_id);
    sendGraph(state, res, 200, { id: media.id });
  });

  router.get(
    '/:userId/threads_publishing_limit',
    faultGate(state, 'threads', 'read'),
    (req: Request<{ userId: string }>, res) => {
      const user = pathUser(res, req.params.userId, 'get');
      sendGraph(state, res, 200, publishingLimit(state, user, graphFields(graphParams(req))));
    },
  );

  // https://developers.facebook.com/docs/threads/reference/reply-management: top-level replies of a post or reply.
  router.get('/:id/replies', faultGate(state, 'threads', 'read'), (req: Request<{ id: string }>, res) => {
    const parent = state.threads.media.get(req.params.id);
    if (!parent) throw objectNotFound('get', req.params.id);
    sendGraph(state, res, 200, {
      data: repliesTo(state, parent.id, graphFields(graphParams(req)), graphParams(req).reverse !== 'false'),
    });
  });

  // https://developers.facebook.com/docs/threads/retrieve-and-discover-posts/retrieve-posts: the user's posts, newest first.
  router.get('/:userId/threads', faultGate(state, 'threads', 'read'), (req: Request<{ userId: string }>, res) => {
    const user = pathUser(res, req.params.userId, 'get');
    sendGraph(state, res, 200, { data: userThreads(state, user, graphParams(req)) });
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

/** The replies directly under a post or reply, newest first unless `reverse=false`; `fields` as asked (id always). */
function repliesTo(
  state: SandboxState,
  parentId: string,
  fields: string[],
  newestFirst: boolean,
): Record<string, unknown>[] {
  const replies = [...state.threads.media.values()]
    .filter((m) => m.replyToId === parentId)
    .sort((a, b) => a.publishedAt - b.publishedAt || Number(a.id) - Number(b.id));
  if (newestFirst) replies.reverse();
  return replies.map((m) => {
    const all: Record<string, unknown> = {
      id: m.id,
      text: m.text,
      username: m.username,
      permalink: m.permalink,
      timestamp: new Date(m.publishedAt).toISOString().replace(/\.\d{3}Z$/, '+0000'),
      is_reply: true,
      replied_to: { id: parentId },
    };
    return Object.fromEntries(Object.entries(all).filter(([k]) => k === 'id' || fields.includes(k)));
  });
}

/** `me` or the token's own user id; any other id "does not exist" for this token. */
function pathUser(res: express.Response, userId: string, method: 'get' | 'post'): SandboxUser {
  const user = currentUser(res);
  if (userId !== 'me' && userId !== user.userId) throw objectNotFound(method, userId);
  return user;
}
