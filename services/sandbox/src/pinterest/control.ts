import { AppError, assertValid, isAppError } from '@postbus/contracts';
import { Type } from '@sinclair/typebox';
import express, { Router, type ErrorRequestHandler } from 'express';
import type { SandboxState } from '../state';

const AddBoard = Type.Object(
  {
    userId: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
    handle: Type.Optional(
      Type.String({ minLength: 1, maxLength: 30, description: 'The user, by handle, when its id is not known' }),
    ),
    name: Type.String({ minLength: 1, maxLength: 180 }),
    privacy: Type.Optional(Type.Union([Type.Literal('PUBLIC'), Type.Literal('PROTECTED'), Type.Literal('SECRET')])),
    sections: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
  },
  { additionalProperties: false },
);
const Access = Type.Object(
  { trialAccess: Type.Optional(Type.Boolean()), failVideoProcessing: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

/**
 * `/__sandbox/pinterest`: boards for a sandbox user, and the app's access level.
 * - POST /boards {userId or handle, name, privacy?, sections?} → 201 {id, name, privacy, sectionIds}
 * - POST /access {trialAccess?, failVideoProcessing?} → trial-access apps' pins are visible to their owner
 *   only; failVideoProcessing: uploads end `failed`
 * - GET /pins → every pin created, with its board and media source
 */
export function pinterestControlRouter(state: SandboxState): Router {
  const router = Router();
  router.use(express.json());
  router.post('/boards', (req, res) => {
    const input = assertValid(AddBoard, req.body, 'pinterest board');
    const user = input.userId
      ? state.users.get(input.userId)
      : state.users.list('pinterest').find((u) => u.handle === input.handle);
    if (!user || user.platform !== 'pinterest')
      throw new AppError('not_found', `No Pinterest sandbox user ${input.userId ?? input.handle}.`);
    const board = state.pinterest.addBoard(user.userId, input.name, {
      id: state.ids.numeric(),
      now: state.now(),
      privacy: input.privacy,
      sections: input.sections,
    });
    res.status(201).json(board);
  });
  router.post('/access', (req, res) => {
    const input = assertValid(Access, req.body, 'pinterest access');
    Object.assign(state.pinterest.limits, input);
    const { trialAccess, failVideoProcessing } = state.pinterest.limits;
    res.json({ trialAccess, failVideoProcessing });
  });
  router.get('/pins', (_req, res) => {
    res.json([...state.pinterest.pins.values()]);
  });
  router.use(((err, _req, res, next) => {
    if (!isAppError(err)) return next(err);
    res.status(err.status).json(err.toBody());
  }) as ErrorRequestHandler);
  return router;
}
