import type { Logger } from '@postbus/kit';
import { Router, type Request, type Response } from 'express';
import type { SandboxState } from '../state';
import { badRequest, youtubeAuth, youtubeErrorHandler, youtubeGate, youtubeUser } from '../youtube/http';
import { queryText } from '../wire-text';
import { findPublished, reportedFigures } from './figures';

/** www.googleapis.com `GET /youtube/v3/videos?part=statistics,status&id=…`: the token's own videos; unknown ids are left out. */
export function youtubeInsightsRouter(state: SandboxState, logger: Logger): Router {
  const router = Router();
  router.get('/v3/videos', ...youtubeGate(state), youtubeAuth(state), (req: Request, res: Response) => {
    const ids = queryText(req.query.id).split(',').filter(Boolean);
    if (!ids.length)
      throw badRequest('missingRequiredParameter', 'No filter selected. Expected one of: id, myRating, chart.');
    const parts = queryText(req.query.part).split(',');
    const user = youtubeUser(res);
    const items = ids.flatMap((id) => {
      const item = findPublished(state, 'youtube', id, user.userId);
      const own = state.youtube.videos.get(id);
      const video = own?.userId === user.userId ? own : undefined;
      if (!item && !video) return [];
      const f = item ? reportedFigures(item) : { views: 0, likes: 0, comments: 0 };
      return [
        {
          kind: 'youtube#video',
          id,
          ...(parts.includes('statistics') && {
            statistics: {
              viewCount: String(f.views),
              likeCount: String(f.likes),
              favoriteCount: '0',
              commentCount: String(f.comments),
            },
          }),
          ...(parts.includes('status') && video && { status: video.resource.status }),
        },
      ];
    });
    res.json({
      kind: 'youtube#videoListResponse',
      items,
      pageInfo: { totalResults: items.length, resultsPerPage: items.length },
    });
  });
  router.use(youtubeErrorHandler(state, logger));
  return router;
}
