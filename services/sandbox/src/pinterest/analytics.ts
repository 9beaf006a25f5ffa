import type { Request, Router } from 'express';
import { reportedFigures, findPublished } from '../insights/figures';
import type { SandboxState } from '../state';
import { authed, badRequest, passFault, PinterestError, send } from './wire';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/**
 * `GET /v5/pins/{pin_id}/analytics` (https://developers.pinterest.com/docs/api/v5/pins-analytics):
 * start_date and end_date (YYYY-MM-DD, at most 90 days back, end not before start) and metric_types
 * are required; the token's own pins only. Answers `{ all: { lifetime_metrics, daily_metrics } }`.
 */
export function pinterestAnalyticsRoutes(router: Router, state: SandboxState): void {
  router.get('/v5/pins/:pinId/analytics', (req: Request<{ pinId: string }>, res) => {
    if (!passFault(state, 'read', res)) return;
    const user = authed(state, req, 'pins:read');
    const { start_date: start, end_date: end, metric_types: types } = req.query;
    if (typeof start !== 'string' || !DATE.test(start) || typeof end !== 'string' || !DATE.test(end))
      throw badRequest('start_date and end_date are required, as YYYY-MM-DD.');
    const today = Date.parse(new Date(state.now()).toISOString().slice(0, 10));
    if (Date.parse(start) < today - 90 * DAY_MS) throw badRequest('start_date is at most 90 days back.');
    if (Date.parse(end) < Date.parse(start)) throw badRequest('end_date is before start_date.');
    if (typeof types !== 'string' || !types) throw badRequest('metric_types is required.');
    const item = findPublished(state, 'pinterest', req.params.pinId, user.userId);
    if (!item) throw new PinterestError(404, 50, 'Pin not found.');
    const f = reportedFigures(item);
    const all: Record<string, number | null> = {
      IMPRESSION: f.views,
      SAVE: f.shares,
      TOTAL_COMMENTS: f.comments,
      PIN_CLICK: f.likes,
    };
    const lifetime = Object.fromEntries(
      types
        .split(',')
        .filter((t) => t in all)
        .map((t) => [t, all[t]]),
    );
    send(state, res, 200, { all: { lifetime_metrics: lifetime, daily_metrics: [], summary_metrics: lifetime } });
  });
}
