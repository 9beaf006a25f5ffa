import type { Logger } from '@postbus/kit';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { invalidParameter, objectNotFound } from '../meta/graph-error';
import {
  authenticate,
  currentUser,
  faultGate,
  graphErrorHandler,
  graphFields,
  graphParams,
  sendGraph,
} from '../meta/graph-http';
import { metaPlatformGate } from '../meta/platform-gate';
import type { SandboxState } from '../state';
import type { SandboxPostComment } from './comment-store';

/**
 * The longest comment each Graph platform takes. Instagram: the API reference states no number
 * (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-media/comments);
 * 2,200 is the app's limit, as for captions. Facebook: 8,000, the limit the Page comment box enforces
 * (https://developers.facebook.com/docs/graph-api/reference/object/comments/).
 */
const COMMENT_MAX = { instagram: 2200, facebook: 8000 } as const;

/**
 * Instagram (`/instagram/{version}`): `POST /{ig-media-id}/comments?message=` on the account's own
 * media, and `GET /{ig-media-id}/comments` (newest first, `fields` of id, text, username, timestamp).
 * A story takes no comments.
 */
export function instagramMediaCommentsRouter(state: SandboxState, logger: Logger): Router {
  const router = Router();
  const gate = [
    express.urlencoded({ extended: false }),
    express.json(),
    ...metaPlatformGate(state, 'instagram'),
    authenticate(state, 'instagram'),
  ];
  const ownMedia = (req: Request<{ mediaId: string }>, res: Response) => {
    const media = state.instagram.media.get(req.params.mediaId);
    if (!media || media.userId !== currentUser(res).userId)
      throw objectNotFound(req.method === 'GET' ? 'get' : 'post', req.params.mediaId);
    return media;
  };

  router.post(
    '/:mediaId/comments',
    gate,
    faultGate(state, 'instagram', 'comment'),
    (req: Request<{ mediaId: string }>, res: Response) => {
      const media = ownMedia(req, res);
      if (media.productType === 'STORY')
        throw invalidParameter('Comments are not supported on this media: stories take no comments.');
      const text = messageOf(graphParams(req).message, COMMENT_MAX.instagram);
      const comment = record(state, {
        platform: 'instagram',
        id: state.ids.numeric(),
        postId: media.id,
        accountId: media.userId,
        text,
        permalink: null,
      });
      sendGraph(state, res, 200, { id: comment.id });
    },
  );

  router.get(
    '/:mediaId/comments',
    gate,
    faultGate(state, 'instagram', 'read'),
    (req: Request<{ mediaId: string }>, res: Response) => {
      const media = ownMedia(req, res);
      const fields = graphFields(graphParams(req));
      const data = newestFirst(state, 'instagram', media.id).map((c) =>
        pick(
          { id: c.id, text: c.text, username: media.username, timestamp: graphTime(c.createdAt) },
          fields.length ? fields : ['text', 'timestamp'],
        ),
      );
      sendGraph(state, res, 200, { data });
    },
  );

  router.use(graphErrorHandler(state, logger));
  return router;
}

/**
 * Facebook (`/facebook/{version}`): `POST /{object-id}/comments?message=` as the Page on its own feed
 * post, photo, video or reel, and `GET /{object-id}/comments` (`from` is the Page). Ids that are not
 * one of the Page's posts go on to the comment replies (`POST /{comment-id}/comments`).
 */
export function facebookPostCommentsRouter(state: SandboxState, logger: Logger): Router {
  const router = Router();
  const gate = [
    express.urlencoded({ extended: false }),
    express.json(),
    ...metaPlatformGate(state, 'facebook'),
    authenticate(state, 'facebook'),
  ];
  const pageOf = (id: string) =>
    state.facebook.posts.get(id)?.pageId ??
    state.facebook.videos.get(id)?.pageId ??
    state.facebook.photos.get(id)?.pageId;
  const onlyPosts = (req: Request<{ objectId: string }>, _res: Response, next: NextFunction) =>
    pageOf(req.params.objectId) ? next() : next('route');

  router.post(
    '/:objectId/comments',
    onlyPosts,
    gate,
    faultGate(state, 'facebook', 'comment'),
    (req: Request<{ objectId: string }>, res: Response) => {
      const page = currentUser(res);
      if (pageOf(req.params.objectId) !== page.userId) throw objectNotFound('post', req.params.objectId);
      const text = messageOf(graphParams(req).message, COMMENT_MAX.facebook);
      const objectNumber = req.params.objectId.split('_').pop();
      const comment = record(state, {
        platform: 'facebook',
        id: `${objectNumber}_${state.ids.numeric()}`,
        postId: req.params.objectId,
        accountId: page.userId,
        text,
        permalink: null,
      });
      sendGraph(state, res, 200, { id: comment.id });
    },
  );

  router.get(
    '/:objectId/comments',
    onlyPosts,
    gate,
    faultGate(state, 'facebook', 'read'),
    (req: Request<{ objectId: string }>, res: Response) => {
      const page = currentUser(res);
      if (pageOf(req.params.objectId) !== page.userId) throw objectNotFound('get', req.params.objectId);
      const fields = graphFields(graphParams(req));
      const data = newestFirst(state, 'facebook', req.params.objectId).map((c) =>
        pick(
          {
            id: c.id,
            message: c.message,
            from: { id: page.userId, name: page.handle },
            created_time: graphTime(c.createdAt),
          },
          fields.length ? fields : ['message', 'created_time'],
        ),
      );
      sendGraph(state, res, 200, { data });
    },
  );

  router.use(graphErrorHandler(state, logger));
  return router;
}

/** Stores a comment the account published on its own post. */
export function record(state: SandboxState, c: Omit<SandboxPostComment, 'createdAt'>): SandboxPostComment {
  const comment: SandboxPostComment = { ...c, createdAt: new Date(state.now()).toISOString() };
  state.comments.postComments.push(comment);
  return comment;
}

function newestFirst(
  state: SandboxState,
  platform: SandboxPostComment['platform'],
  postId: string,
): (SandboxPostComment & { message: string })[] {
  return state.comments.postComments
    .filter((c) => c.platform === platform && c.postId === postId)
    .map((c) => ({ ...c, message: c.text }))
    .reverse();
}

function messageOf(text: string | undefined, max: number): string {
  if (!text?.trim()) throw invalidParameter('The parameter message is required.');
  if ([...text].length > max) throw invalidParameter(`Param message must be at most ${max} characters long.`);
  return text;
}

/** Graph's timestamp format: `2026-11-25T16:37:05+0000`. */
function graphTime(iso: string): string {
  return iso.replace(/\.\d{3}Z$/, '+0000');
}

function pick(object: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { id: object.id };
  for (const field of fields) if (field in object) out[field] = object[field];
  return out;
}
