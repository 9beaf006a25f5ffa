import type { Logger } from '@postbus/kit';
import express, { Router, type Request } from 'express';
import { platformLatency } from '../platform-settings';
import { recordRequests } from '../requests';
import type { SandboxState } from '../state';
import { pinterestMediaRoutes, pinterestUploadRouter } from './media';
import { pinterestAnalyticsRoutes } from './analytics';
import { pinterestOAuthRoutes } from './oauth';
import { createPin, pinBody } from './pins';
import { authed, badRequest, errorHandler, passFault, PinterestError, send } from './wire';

export { pinterestUploadRouter };

/**
 * Pinterest API v5 under `/pinterest` (https://developers.pinterest.com/docs/api/v5/): OAuth
 * (`/oauth/` consent page, `/v5/oauth/token`), `/v5/user_account`, boards (list, create, a board's
 * pins), pins (create with image_url, multiple_image_urls or video_id; get) and video media uploads.
 * Fault operations: pin creation `publish`, media registration `create`, the S3 upload `upload`,
 * media status `status`, every other call `read`.
 */
export function pinterestRouter(state: SandboxState, _logger: Logger): Router {
  const router = Router();
  router.use(express.json({ limit: '1mb' }), express.urlencoded({ extended: false, limit: '64kb' }));
  router.use(
    recordRequests(state.requests, 'pinterest', () => state.now()),
    platformLatency(() => state.settingsFor('pinterest').latencyMs),
  );
  pinterestOAuthRoutes(router, state);
  userRoutes(router, state);
  boardRoutes(router, state);
  router.post('/v5/pins', (req, res) => {
    if (!passFault(state, 'publish', res)) return;
    const user = authed(state, req, 'pins:write');
    if (!req.is('application/json')) throw badRequest('The body must be application/json.');
    send(state, res, 201, createPin(state, user, (req.body ?? {}) as Record<string, unknown>));
  });
  router.get('/v5/pins/:pinId', (req: Request<{ pinId: string }>, res) => {
    if (!passFault(state, 'read', res)) return;
    const user = authed(state, req, 'pins:read');
    const pin = state.pinterest.pins.get(req.params.pinId);
    if (!pin || (pin.visibleToOwnerOnly && pin.userId !== user.userId))
      throw new PinterestError(404, 50, 'Pin not found.');
    send(state, res, 200, pinBody(pin));
  });
  pinterestMediaRoutes(router, state);
  pinterestAnalyticsRoutes(router, state);
  router.use((req) => {
    throw new PinterestError(404, 404, `The sandbox has no Pinterest route ${req.method} ${req.path}.`);
  });
  router.use(errorHandler());
  return router;
}

function userRoutes(router: Router, state: SandboxState): void {
  // https://developers.pinterest.com/docs/api/v5/user_account-get
  router.get('/v5/user_account', (req, res) => {
    if (!passFault(state, 'read', res)) return;
    const user = authed(state, req, 'user_accounts:read');
    send(state, res, 200, {
      account_type: 'BUSINESS',
      id: user.userId,
      username: user.handle,
      business_name: user.handle,
      profile_image: `https://i.pinimg.com/sandbox/${user.userId}.jpg`,
      website_url: null,
    });
  });
}

function boardRoutes(router: Router, state: SandboxState): void {
  // https://developers.pinterest.com/docs/api/v5/boards-list: paged with bookmark, page_size 1–250 (default 25).
  router.get('/v5/boards', (req, res) => {
    if (!passFault(state, 'read', res)) return;
    const user = authed(state, req, 'boards:read');
    const size = req.query.page_size === undefined ? 25 : Number(req.query.page_size);
    if (!Number.isInteger(size) || size < 1 || size > 250) throw badRequest('page_size must be 1 to 250.');
    const start = typeof req.query.bookmark === 'string' && req.query.bookmark ? Number(req.query.bookmark) : 0;
    if (!Number.isInteger(start) || start < 0) throw badRequest('Invalid bookmark.');
    const boards = state.pinterest.boardsOf(user.userId);
    const page = boards.slice(start, start + size);
    const next = start + size < boards.length ? String(start + size) : null;
    send(state, res, 200, { items: page.map(boardBody), bookmark: next });
  });
  // https://developers.pinterest.com/docs/api/v5/boards-create
  router.post('/v5/boards', (req, res) => {
    if (!passFault(state, 'create', res)) return;
    const user = authed(state, req, 'boards:write');
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (typeof body.name !== 'string' || !body.name.trim() || body.name.length > 180)
      throw badRequest('name is required (at most 180 characters).');
    const privacy = body.privacy ?? 'PUBLIC';
    if (typeof privacy !== 'string' || !['PUBLIC', 'PROTECTED', 'SECRET'].includes(privacy))
      throw badRequest('privacy must be PUBLIC, PROTECTED or SECRET.');
    const board = state.pinterest.addBoard(user.userId, body.name, {
      description: typeof body.description === 'string' ? body.description : '',
      privacy: privacy as 'PUBLIC',
      now: state.now(),
      id: state.ids.numeric(),
    });
    send(state, res, 201, boardBody(board));
  });
  // https://developers.pinterest.com/docs/api/v5/boards-list_pins: newest first.
  router.get('/v5/boards/:boardId/pins', (req: Request<{ boardId: string }>, res) => {
    if (!passFault(state, 'read', res)) return;
    const user = authed(state, req, 'pins:read');
    const board = state.pinterest.boards.get(req.params.boardId);
    if (!board || board.userId !== user.userId) throw new PinterestError(404, 40, 'Board not found.');
    const pins = [...state.pinterest.pins.values()].filter((p) => p.boardId === board.id).reverse();
    send(state, res, 200, { items: pins.slice(0, 250).map(pinBody), bookmark: null });
  });
}

function boardBody(b: { id: string; name: string; description: string; privacy: string; createdAt: string }) {
  return { id: b.id, name: b.name, description: b.description, privacy: b.privacy, created_at: b.createdAt };
}
