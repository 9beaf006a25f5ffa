import { assertValid, isAppError, PLATFORMS, AppError, type Platform } from '@postbus/contracts';
import { Type } from '@sinclair/typebox';
import express, { Router, type ErrorRequestHandler } from 'express';
import type { SandboxState } from '../state';
import { findPublished, reportedFigures, setFigures } from './figures';

const Count = Type.Integer({ minimum: 0, maximum: 1_000_000_000 });
const SetFigures = Type.Object(
  {
    platform: Type.Union(PLATFORMS.map((p) => Type.Literal(p))),
    id: Type.String({ minLength: 1 }),
    views: Type.Optional(Count),
    likes: Type.Optional(Count),
    comments: Type.Optional(Count),
    shares: Type.Optional(Count),
  },
  { additionalProperties: false },
);

/**
 * `/__sandbox/insights`: the figures each insights endpoint reports for published items.
 * - GET /[?platform=&userId=] → [{platform, id, userId, views, likes, comments, shares}] (null where the platform reports none)
 * - POST / {platform, id, views?, likes?, comments?, shares?} → sets an item's figures from now on
 */
export function insightsControlRouter(state: SandboxState): Router {
  const router = Router();
  router.use(express.json());
  router.get('/', (req, res) => {
    const platform = typeof req.query.platform === 'string' ? (req.query.platform as Platform) : undefined;
    const userId = typeof req.query.userId === 'string' ? req.query.userId : undefined;
    res.json(
      state.published
        .list({ platform, userId })
        .map((item) => ({ platform: item.platform, id: item.id, userId: item.userId, ...reportedFigures(item) })),
    );
  });
  router.post('/', (req, res) => {
    const { platform, id, ...figures } = assertValid(SetFigures, req.body, 'figures');
    const item = findPublished(state, platform, id);
    if (!item) throw new AppError('not_found', `No published ${platform} item ${id}.`);
    setFigures(item, figures);
    res.json({ platform, id, userId: item.userId, ...reportedFigures(item) });
  });
  const errors: ErrorRequestHandler = (err, _req, res, _next) => {
    if (isAppError(err)) return void res.status(err.status).json(err.toBody());
    res.status(400).json({ error: (err as Error).message, code: 'validation_error' });
  };
  router.use(errors);
  return router;
}
