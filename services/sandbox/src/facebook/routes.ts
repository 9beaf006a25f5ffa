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
import { recordBodyBytes } from '../requests';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import { createFeedPost, createPhoto } from './posts';
import { graphMultipart, multipartFile } from '../meta/graph-multipart';
import { PAGE_VIDEO_BODY_MAX, createPageVideo, finishReel, receiveReelBytes, startReel, videoStatus } from './videos';

/** Where rupload lives relative to the sandbox root (`rupload.facebook.com`). */
export const FACEBOOK_RUPLOAD_PATH = '/rupload';

/** graph.facebook.com (`/facebook/:version`): feed, photos, Page videos, video_reels start/finish, object reads. */
export function facebookGraphRouter(state: SandboxState, logger: Logger): Router {
  const router = Router();
  const gate = [
    express.urlencoded({ extended: false }),
    express.json(),
    ...metaPlatformGate(state, 'facebook'),
    authenticate(state, 'facebook'),
  ];

  router.post(
    '/:pageId/feed',
    gate,
    faultGate(state, 'facebook', 'publish'),
    (req: Request<{ pageId: string }>, res: Response) => {
      const post = createFeedPost(state, pathPage(res, req.params.pageId), graphParams(req));
      sendGraph(state, res, 200, { id: post.id });
    },
  );

  router.post('/:pageId/photos', gate, (req: Request<{ pageId: string }>, res: Response) => {
    const params = graphParams(req);
    if (!passFault(state, 'facebook', params.published === 'false' ? 'create' : 'publish', res)) return;
    const photo = createPhoto(state, pathPage(res, req.params.pageId), params);
    sendGraph(state, res, 200, { id: photo.id, ...(photo.postId && { post_id: photo.postId }) });
  });

  router.post('/:pageId/video_reels', gate, (req: Request<{ pageId: string }>, res: Response) => {
    const params = graphParams(req);
    const page = pathPage(res, req.params.pageId);
    if (params.upload_phase === 'start') {
      if (!passFault(state, 'facebook', 'create', res)) return;
      const { video, uploadUrl } = startReel(
        state,
        page,
        `${req.protocol}://${req.get('host')}${FACEBOOK_RUPLOAD_PATH}`,
        graphVersionOf(req.baseUrl),
      );
      sendGraph(state, res, 200, { video_id: video.id, upload_url: uploadUrl });
      return;
    }
    if (params.upload_phase === 'finish') {
      if (!passFault(state, 'facebook', 'publish', res)) return;
      finishReel(state, page, params);
      sendGraph(state, res, 200, { success: true });
      return;
    }
    throw objectNotFound('post', 'upload_phase');
  });

  router.post(
    '/:pageId/videos',
    ...graphMultipart(PAGE_VIDEO_BODY_MAX),
    gate,
    faultGate(state, 'facebook', 'publish'),
    (req: Request<{ pageId: string }>, res: Response) => {
      const page = pathPage(res, req.params.pageId);
      const thumb = multipartFile(res, 'thumb');
      const video = createPageVideo(state, page, graphParams(req), FACEBOOK_RUPLOAD_PATH, thumb);
      sendGraph(state, res, 200, { id: video.id });
    },
  );

  router.get('/:id', gate, (req: Request<{ id: string }>, res: Response) => {
    const video = state.facebook.videos.get(req.params.id);
    const fields = graphFields(graphParams(req));
    if (!passFault(state, 'facebook', video && fields.includes('status') ? 'status' : 'read', res)) return;
    sendGraph(state, res, 200, readObject(state, currentUser(res), req.params.id, fields));
  });

  router.use(graphErrorHandler(state, logger));
  return router;
}

/** graph-video.facebook.com (`/facebook-video/:version`): Page videos by file_url, once the retired-host rule is relaxed. */
export function facebookVideoRouter(state: SandboxState, logger: Logger): Router {
  const router = Router();
  const gate = [
    express.urlencoded({ extended: false }),
    express.json(),
    ...metaPlatformGate(state, 'facebook'),
    authenticate(state, 'facebook'),
  ];
  router.post(
    '/:pageId/videos',
    ...graphMultipart(PAGE_VIDEO_BODY_MAX),
    gate,
    faultGate(state, 'facebook', 'publish'),
    (req: Request<{ pageId: string }>, res: Response) => {
      const page = pathPage(res, req.params.pageId);
      const thumb = multipartFile(res, 'thumb');
      const video = createPageVideo(state, page, graphParams(req), FACEBOOK_RUPLOAD_PATH, thumb);
      sendGraph(state, res, 200, { id: video.id });
    },
  );
  router.use(graphErrorHandler(state, logger));
  return router;
}

/** rupload.facebook.com (`/rupload`): the bytes of a reel, `Authorization: OAuth`. */
export function facebookRuploadRouter(state: SandboxState, logger: Logger): Router {
  const router = Router();
  router.post(
    '/video-upload/:version/:videoId',
    ...metaPlatformGate(state, 'facebook'),
    authenticate(state, 'facebook'),
    faultGate(state, 'facebook', 'upload'),
    async (req: Request<{ version: string; videoId: string }>, res: Response) => {
      const read = await receiveReelBytes(
        state,
        currentUser(res),
        req.params.videoId,
        { offset: req.get('offset'), fileSize: req.get('file_size'), fileUrl: req.get('file_url') },
        req,
        logger,
      );
      recordBodyBytes(res, read);
      sendGraph(state, res, 200, { success: true });
    },
  );
  router.use(graphErrorHandler(state, logger));
  return router;
}

function readObject(state: SandboxState, page: SandboxUser, id: string, fields: string[]): Record<string, unknown> {
  if (id === 'me' || id === page.userId) return pick({ id: page.userId, name: page.handle }, fields);
  const video = state.facebook.videos.get(id);
  if (video && video.pageId === page.userId) {
    return pick(
      {
        id,
        status: videoStatus(state, video),
        permalink_url: video.permalink,
        description: video.description,
        title: video.title,
      },
      fields,
    );
  }
  const post = state.facebook.posts.get(id);
  if (post && post.pageId === page.userId) {
    return pick(
      {
        id,
        message: post.message,
        permalink_url: post.permalink,
        created_time: new Date(post.publishedAt).toISOString().replace(/\.\d{3}Z$/, '+0000'),
      },
      fields,
    );
  }
  const photo = state.facebook.photos.get(id);
  if (photo && photo.pageId === page.userId)
    return pick({ id, link: `https://www.facebook.com/photo/?fbid=${id}`, name: photo.caption }, fields);
  throw objectNotFound('get', id);
}

/** `/facebook/v26.0` → `v26.0`: the rupload URL names the version the reel was started with. */
function graphVersionOf(baseUrl: string): string {
  return baseUrl.split('/').pop() || 'v21.0';
}

function pathPage(res: Response, pageId: string): SandboxUser {
  const page = currentUser(res);
  if (pageId !== 'me' && pageId !== page.userId) throw objectNotFound('post', pageId);
  return page;
}

function pick(object: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) if (field in object) out[field] = object[field];
  out.id = object.id;
  return out;
}
