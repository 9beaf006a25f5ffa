import { AppError, PLATFORMS, assertValid, isAppError, isPlatform } from '@postbus/contracts';
import { Type } from '@sinclair/typebox';
import { Router, json, type ErrorRequestHandler } from 'express';
import type { SandboxState } from '../state';
import { OAUTH_FAULT_OPERATIONS } from './oauth-store';

const PlatformSchema = Type.Union(PLATFORMS.map((p) => Type.Literal(p)));
const Seconds = Type.Integer({ minimum: 1, maximum: 400 * 86_400 });

const Settings = Type.Object(
  {
    platform: PlatformSchema,
    shortTokenTtlSec: Type.Optional(Seconds),
    accessTokenTtlSec: Type.Optional(Seconds),
    refreshTokenTtlSec: Type.Optional(Type.Union([Seconds, Type.Null()])),
    rotateRefreshTokens: Type.Optional(Type.Boolean()),
    issueRefreshToken: Type.Optional(Type.Boolean()),
    approvedScopes: Type.Optional(
      Type.Union([Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 100 }), Type.Null()]),
    ),
    refreshMinAgeSec: Type.Optional(Type.Integer({ minimum: 0, maximum: 400 * 86_400 })),
  },
  { additionalProperties: false },
);

const Fault = Type.Object(
  {
    platform: PlatformSchema,
    operation: Type.Optional(Type.Union(OAUTH_FAULT_OPERATIONS.map((o) => Type.Literal(o)))),
    status: Type.Optional(Type.Integer({ minimum: 400, maximum: 599 })),
    error: Type.Optional(Type.String({ pattern: '^[a-z_]{1,60}$' })),
    dropAnswer: Type.Optional(Type.Boolean()),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  },
  { additionalProperties: false },
);

const GrantScopes = Type.Object(
  {
    userId: Type.String({ minLength: 1, maxLength: 100 }),
    scopes: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 100 }),
  },
  { additionalProperties: false },
);

/**
 * `/__sandbox/oauth`: drives the emulated authorization servers.
 *
 * - POST /settings {platform, shortTokenTtlSec?, accessTokenTtlSec?, refreshTokenTtlSec?, rotateRefreshTokens?, issueRefreshToken?, approvedScopes? (null: any), refreshMinAgeSec? (0: any age)} → the platform's settings
 * - POST /faults {platform, operation?: token|profile|any (token), status? (503), error?, dropAnswer?, count? (1)} → the next calls fail;
 *   dropAnswer: the call is carried out (a TikTok refresh rotates the token) and the connection dropped before the answer
 * - POST /scopes {userId, scopes} → the person changed what the app may do (in the platform's settings): the user's grants now hold these scopes, and refreshes answer them
 * - GET /tokens[?platform=] → every token handed out, oldest first
 * - GET /avatars/:userId.svg → an account's picture
 */
export function oauthControlRouter(state: SandboxState): Router {
  const router = Router();
  router.use(json());

  router.post('/settings', (req, res) => {
    const { platform, ...changes } = assertValid(Settings, req.body, 'oauth settings');
    state.oauth.settings[platform] = { ...state.oauth.settings[platform], ...changes };
    res.json({ platform, ...state.oauth.settings[platform] });
  });

  router.post('/faults', (req, res) => {
    const input = assertValid(Fault, req.body, 'oauth fault');
    const fault = {
      platform: input.platform,
      operation: input.operation ?? 'token',
      status: input.status ?? (input.error ? 400 : 503),
      error: input.error,
      dropAnswer: input.dropAnswer,
      count: input.count ?? 1,
    };
    state.oauth.addFault(fault);
    res.status(201).json({ fault });
  });

  router.post('/scopes', (req, res) => {
    const { userId, scopes } = assertValid(GrantScopes, req.body, 'grant scopes');
    const grants = [...state.oauth.refreshTokens.values()].filter((g) => g.userId === userId);
    if (!grants.length) throw new AppError('not_found', `No refresh grant of sandbox user ${userId}.`);
    for (const grant of grants) grant.scopes = [...scopes];
    res.json({ userId, scopes, grants: grants.length });
  });

  router.get('/tokens', (req, res) => {
    const platform = req.query.platform;
    if (platform !== undefined && !isPlatform(platform))
      throw new AppError('unsupported_platform', `Unknown platform ${JSON.stringify(platform)}.`);
    res.json({ tokens: state.oauth.issued.filter((t) => !platform || t.platform === platform) });
  });

  router.get('/avatars/:file', (req, res) => {
    const userId = req.params.file.replace(/\.svg$/, '');
    const user = state.users.get(userId);
    if (!user) throw new AppError('not_found', `No sandbox user ${userId}.`);
    const hue = Number(BigInt(user.userId) % 360n);
    const letter = user.handle
      .slice(0, 1)
      .toUpperCase()
      .replace(/[^A-Z0-9]/, '?');
    res
      .type('image/svg+xml')
      .send(
        `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96"><rect width="96" height="96" fill="hsl(${hue},60%,55%)"/><text x="48" y="62" font-size="44" text-anchor="middle" fill="#fff" font-family="sans-serif">${letter}</text></svg>`,
      );
  });

  router.use(((err, _req, res, _next) => {
    if (isAppError(err)) return void res.status(err.status).json(err.toBody());
    if ((err as { type?: string }).type === 'entity.parse.failed')
      return void res.status(400).json({ error: 'The request body is not valid JSON.', code: 'invalid_json' });
    res.status(500).json({ error: (err as Error).message ?? 'Internal error', code: 'internal_error' });
  }) as ErrorRequestHandler);
  return router;
}
