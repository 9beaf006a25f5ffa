import type { Logger } from '@postbus/kit';
import express, { Router, type Request, type Response } from 'express';
import type { SandboxState } from '../state';
import { invalidParam, sendTikTok, tiktokAuth, tiktokErrorHandler, tiktokGate, tiktokUser } from '../tiktok/http';
import { queryText } from '../wire-text';
import { findPublished, reportedFigures } from './figures';

const FIELDS: Record<string, (f: ReturnType<typeof reportedFigures>) => number | null> = {
  view_count: (f) => f.views,
  like_count: (f) => f.likes,
  comment_count: (f) => f.comments,
  share_count: (f) => f.shares,
};

/** open.tiktokapis.com `POST /v2/video/query/?fields=…` with `{filters:{video_ids}}`: the token's own public videos (up to 20). */
export function tiktokInsightsRouter(state: SandboxState, logger: Logger): Router {
  const router = Router();
  router.post(
    '/v2/video/query/',
    express.json(),
    ...tiktokGate(state),
    tiktokAuth(state),
    (req: Request, res: Response) => {
      const ids = (req.body as { filters?: { video_ids?: unknown } } | undefined)?.filters?.video_ids;
      if (!Array.isArray(ids) || !ids.length || ids.length > 20 || ids.some((id) => typeof id !== 'string'))
        throw invalidParam('filters.video_ids must list 1 to 20 video ids.');
      const fields = queryText(req.query.fields, 'id')
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean);
      const user = tiktokUser(res);
      const videos = (ids as string[]).flatMap((id) => {
        const item = findPublished(state, 'tiktok', id, user.userId);
        if (!item) return [];
        const figures = reportedFigures(item);
        const video: Record<string, unknown> = { id };
        for (const field of fields) if (FIELDS[field]) video[field] = FIELDS[field](figures);
        return [video];
      });
      sendTikTok(state, res, { videos, cursor: 0, has_more: false });
    },
  );
  router.use(tiktokErrorHandler(state, logger));
  return router;
}
