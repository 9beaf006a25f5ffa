import type { Platform } from '@postbus/contracts';
import type { Logger } from '@postbus/kit';
import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { invalidParameter, objectNotFound } from '../meta/graph-error';
import { authenticate, currentUser, graphErrorHandler, graphFields, graphParams, sendGraph } from '../meta/graph-http';
import { metaPlatformGate } from '../meta/platform-gate';
import type { PublishedItem } from '../published';
import type { SandboxState } from '../state';
import { findPublished, reportedFigures, type ReportedFigures } from './figures';

/** Which insights metric of each Meta platform reports which figure. */
const METRICS: Record<'threads' | 'instagram' | 'facebook', Record<string, keyof ReportedFigures>> = {
  threads: { views: 'views', likes: 'likes', replies: 'comments', shares: 'shares' },
  instagram: { views: 'views', likes: 'likes', comments: 'comments', shares: 'shares' },
  facebook: { post_impressions: 'views', total_video_views: 'views' },
};

function gate(state: SandboxState, platform: Platform): RequestHandler[] {
  return [
    express.urlencoded({ extended: false }),
    express.json(),
    ...metaPlatformGate(state, platform),
    authenticate(state, platform),
  ];
}

function ownItem(state: SandboxState, platform: Platform, res: Response, id: string): PublishedItem {
  const item = findPublished(state, platform, id, currentUser(res).userId);
  if (!item) throw objectNotFound('get', id);
  return item;
}

/** `{"data":[{name, period:"lifetime", values:[{value}], title, id}]}` for the metrics asked; an unknown metric is code 100. */
function insightsAnswer(
  platform: 'threads' | 'instagram' | 'facebook',
  item: PublishedItem,
  metricParam: string | undefined,
  allowed: string[],
) {
  const metrics = (metricParam ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  if (!metrics.length) throw invalidParameter('The parameter metric is required.');
  const unknown = metrics.find((m) => !allowed.includes(m));
  if (unknown)
    throw invalidParameter(`metric[0] must be one of the following values: ${allowed.join(', ')}; got ${unknown}.`);
  const figures = reportedFigures(item);
  return {
    data: metrics.map((name) => ({
      name,
      period: 'lifetime',
      values: [{ value: figures[METRICS[platform][name]] ?? 0 }],
      title: name.replace(/_/g, ' '),
      id: `${item.id}/insights/${name}/lifetime`,
    })),
  };
}

/** Threads and Instagram: `GET /{media-id}/insights?metric=…` for the token's own published media. */
export function mediaInsightsRouter(state: SandboxState, platform: 'threads' | 'instagram', logger: Logger): Router {
  const router = Router();
  router.get('/:id/insights', gate(state, platform), (req: Request<{ id: string }>, res: Response) => {
    const item = ownItem(state, platform, res, req.params.id);
    sendGraph(state, res, 200, insightsAnswer(platform, item, graphParams(req).metric, Object.keys(METRICS[platform])));
  });
  router.use(graphErrorHandler(state, logger));
  return router;
}

const ENGAGEMENT_FIELD = /^(reactions|likes|comments|shares)\b/;
const summaryOf = (count: number) => ({ data: [], summary: { total_count: count } });

/**
 * Facebook: `GET /{post-id}/insights?metric=post_impressions`, `GET /{video-id}/video_insights?metric=total_video_views`,
 * and `GET /{id}?fields=reactions…,likes…,comments…,shares` of a published item (other reads go on to the Graph emulator).
 */
export function facebookInsightsRouter(state: SandboxState, logger: Logger): Router {
  const router = Router();
  // Only engagement fields of a published item are answered here; any other read goes on to the Graph emulator.
  const engagementRead = (req: Request<{ id: string }>, _res: Response, next: NextFunction) =>
    next(
      graphFields(graphParams(req)).some((f) => ENGAGEMENT_FIELD.test(f)) &&
        findPublished(state, 'facebook', req.params.id)
        ? undefined
        : 'router',
    );
  router.get('/:id/insights', gate(state, 'facebook'), (req: Request<{ id: string }>, res: Response) => {
    const item = ownItem(state, 'facebook', res, req.params.id);
    if (!item.id.includes('_')) throw objectNotFound('get', `${item.id}/insights`);
    sendGraph(state, res, 200, insightsAnswer('facebook', item, graphParams(req).metric, ['post_impressions']));
  });
  router.get('/:id/video_insights', gate(state, 'facebook'), (req: Request<{ id: string }>, res: Response) => {
    const item = ownItem(state, 'facebook', res, req.params.id);
    if (item.id.includes('_')) throw objectNotFound('get', `${item.id}/video_insights`);
    sendGraph(state, res, 200, insightsAnswer('facebook', item, graphParams(req).metric, ['total_video_views']));
  });
  router.get('/:id', engagementRead, gate(state, 'facebook'), (req: Request<{ id: string }>, res: Response) => {
    const item = ownItem(state, 'facebook', res, req.params.id);
    const figures = reportedFigures(item);
    const out: Record<string, unknown> = { id: item.id };
    for (const field of graphFields(graphParams(req))) {
      const name = ENGAGEMENT_FIELD.exec(field)?.[1];
      if (name === 'reactions' || name === 'likes') out[name] = summaryOf(figures.likes ?? 0);
      if (name === 'comments') out.comments = summaryOf(figures.comments ?? 0);
      // Graph leaves `shares` out when nobody shared, and videos have none.
      if (name === 'shares' && figures.shares) out.shares = { count: figures.shares };
    }
    sendGraph(state, res, 200, out);
  });
  router.use(graphErrorHandler(state, logger));
  return router;
}
