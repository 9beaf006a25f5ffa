import { countOf, itemNotListed, type PlatformEngagement } from '../insights/engagement';
import { isPlatformError } from '../errors';
import { callPinterest, type PinterestApiOptions } from './api';

/** Pinterest keeps a pin's analytics for the last 90 days. */
const WINDOW_DAYS = 89;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * A pin's lifetime figures over the window Pinterest keeps: impressions as views, saves as shares,
 * comments (`GET /v5/pins/{pin_id}/analytics`, scope pins:read: https://developers.pinterest.com/docs/api/v5/pins-analytics).
 * Pinterest reports no likes. A pin that is gone (404) is not listed any more.
 */
export async function getPinterestEngagement(
  api: PinterestApiOptions,
  pinId: string,
  now = Date.now(),
): Promise<PlatformEngagement> {
  let body: Record<string, unknown>;
  try {
    body = await callPinterest(api, {
      method: 'GET',
      path: `/v5/pins/${encodeURIComponent(pinId)}/analytics`,
      query: {
        start_date: day(now - WINDOW_DAYS * 86_400_000),
        end_date: day(now),
        metric_types: 'IMPRESSION,SAVE,TOTAL_COMMENTS',
      },
    });
  } catch (err) {
    if (isPlatformError(err) && err.status === 404) throw itemNotListed('pinterest', pinId);
    throw err;
  }
  const all = (body.all ?? {}) as { lifetime_metrics?: Record<string, unknown> };
  const m = all.lifetime_metrics ?? {};
  return { views: countOf(m.IMPRESSION), likes: null, comments: countOf(m.TOTAL_COMMENTS), shares: countOf(m.SAVE) };
}
