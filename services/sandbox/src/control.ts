import { AppError, PLATFORMS, assertValid, isAppError, isPlatform, type Platform } from '@postbus/contracts';
import { Type } from '@sinclair/typebox';
import express, { Router, type ErrorRequestHandler } from 'express';
import { FAULT_OPERATIONS, type FaultSpec } from './faults';
import { META_PLATFORMS } from './meta/meta-throttle';
import type { SandboxState } from './state';

const PlatformSchema = Type.Union(PLATFORMS.map((p) => Type.Literal(p)));

const CreateUser = Type.Object(
  {
    platform: PlatformSchema,
    handle: Type.String({ pattern: '^[A-Za-z0-9._]{1,30}$' }),
    private: Type.Optional(Type.Boolean({ description: 'TikTok: a private account' })),
    instance: Type.Optional(
      Type.String({
        pattern: '^[a-z0-9.-]{1,253}$',
        description:
          'Mastodon: the instance the account lives on (default mastodon.example); the handle becomes username@instance',
      }),
    ),
  },
  { additionalProperties: false },
);

const AddFault = Type.Object(
  {
    platform: PlatformSchema,
    mode: Type.Union([Type.Literal('error'), Type.Literal('throttle'), Type.Literal('timeout'), Type.Literal('none')]),
    operation: Type.Optional(Type.Union(FAULT_OPERATIONS.map((o) => Type.Literal(o)))),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
    code: Type.Optional(Type.Integer()),
    subcode: Type.Optional(Type.Integer()),
    status: Type.Optional(Type.Integer({ minimum: 400, maximum: 599 })),
    message: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    applied: Type.Optional(Type.Boolean()),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);

const Settings = Type.Object(
  {
    processingDelayMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 3_600_000 })),
    latencyMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 600_000 })),
    platform: Type.Optional(PlatformSchema),
    throttlePerMinute: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  },
  { additionalProperties: false },
);

const MetaThrottleSettings = Type.Object(
  {
    platform: Type.Union(META_PLATFORMS.map((p) => Type.Literal(p))),
    windowMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 7 * 86_400_000 })),
    appCalls: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000 }), Type.Null()])),
    appCallsPerUser: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000 }), Type.Null()])),
    accountCalls: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000 }), Type.Null()])),
  },
  { additionalProperties: false },
);

const TikTokAuditSettings = Type.Object(
  {
    unaudited: Type.Optional(Type.Boolean()),
    usersPerDay: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  },
  { additionalProperties: false },
);

const TikTokLimitSettings = Type.Object(
  {
    verifiedUrlPrefixes: Type.Optional(
      Type.Union([Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { maxItems: 100 }), Type.Null()]),
    ),
    maxVideoPostDurationSec: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400 })),
  },
  { additionalProperties: false },
);

/**
 * `/__sandbox`: what tests and `pnpm start` use to drive the emulated platforms.
 *
 * - POST /users {platform, handle, private? (TikTok: a private account), instance? (Mastodon)} → 201 {platform, userId, accessToken, handle}
 * - POST /users/:userId/revoke → the user's token now answers "session invalidated" (190/460)
 * - GET /published[?platform=&userId=] → every post that went live, oldest first
 * - POST /faults {platform, mode, operation?, count?, code?, subcode?, status?, message?, applied?} → queue failures; mode none clears
 * - GET /faults[?platform=] → the queued faults
 * - POST /settings {processingDelayMs?, latencyMs?} → change timing at run time
 * - POST /settings {platform, processingDelayMs?, latencyMs?, throttlePerMinute?} → one platform's own timing and throttling
 * - GET /requests[?platform=&since=] → every request the emulated platforms received (protocol headers and bodies, no tokens)
 * - POST /meta-throttle {platform, windowMs?, appCalls?, appCallsPerUser?, accountCalls?} → Meta's call budgets per rolling window (null: unlimited)
 * - POST /tiktok/audit {unaudited?, usersPerDay?} → the TikTok client's audit state (unaudited, 5 users a day, by default)
 * - POST /tiktok/limits {verifiedUrlPrefixes? (null: any URL), maxVideoPostDurationSec?} → the URL prefixes TikTok pulls from (default: Postbus's development /files/) and the creators' longest video (creator_info; default 600 s)
 * - POST /reset → forget everything (204)
 */
export function controlRouter(state: SandboxState): Router {
  const router = Router();
  router.use(express.json());
  addUserRoutes(router, state);
  addFaultRoutes(router, state);
  addSettingRoutes(router, state);
  router.use((req) => {
    throw new AppError('not_found', `The sandbox has no control endpoint ${req.method} ${req.originalUrl}.`);
  });
  router.use(controlErrorHandler);
  return router;
}

/** Users of the emulated platforms and what they published. */
function addUserRoutes(router: Router, state: SandboxState): void {
  router.post('/users', (req, res) => {
    const input = assertValid(CreateUser, req.body, 'user');
    const handle = input.platform === 'mastodon' && input.instance ? `${input.handle}@${input.instance}` : input.handle;
    const user = state.users.create(input.platform, handle, new Date(state.now()), { privateAccount: input.private });
    res
      .status(201)
      .json({ platform: user.platform, userId: user.userId, accessToken: user.accessToken, handle: user.handle });
  });

  router.post('/users/:userId/revoke', (req, res) => {
    const user = state.users.revoke(req.params.userId);
    if (!user) throw new AppError('not_found', `No sandbox user has the id ${req.params.userId}.`);
    res.json({ platform: user.platform, userId: user.userId, handle: user.handle, revoked: true });
  });

  router.get('/published', (req, res) => {
    const platform = optionalPlatform(req.query.platform);
    const userId = typeof req.query.userId === 'string' ? req.query.userId : undefined;
    res.json(state.published.list({ platform, userId }));
  });
}

/** Failures to inject, and the requests the platforms received. */
function addFaultRoutes(router: Router, state: SandboxState): void {
  router.post('/faults', (req, res) => {
    const input = assertValid(AddFault, req.body, 'fault');
    if (input.mode === 'none') {
      state.faults.clear(input.platform);
      res.json({ faults: [] });
      return;
    }
    const spec: FaultSpec = {
      ...input,
      mode: input.mode,
      operation: input.operation ?? 'publish',
      count: input.count ?? 1,
      applied: input.applied ?? true,
    };
    const fault = state.faults.add(spec);
    res.status(201).json({ fault, faults: state.faults.list(input.platform) });
  });

  router.get('/requests', (req, res) => {
    const since = Number(req.query.since ?? 0);
    res.json(
      state.requests.list({
        platform: optionalPlatform(req.query.platform),
        since: Number.isFinite(since) ? since : 0,
      }),
    );
  });

  router.get('/faults', (req, res) => {
    res.json({ faults: state.faults.list(optionalPlatform(req.query.platform)) });
  });
}

/** Timing, throttling, TikTok's audit and pull limits, and a reset of everything. */
function addSettingRoutes(router: Router, state: SandboxState): void {
  router.post('/settings', (req, res) => {
    const input = assertValid(Settings, req.body ?? {}, 'settings');
    if (input.platform) {
      const { platform, ...own } = input;
      res.json({ platform, ...state.platformSettings.set(platform, own), effective: state.settingsFor(platform) });
      return;
    }
    if (input.throttlePerMinute !== undefined)
      throw new AppError('validation_error', 'throttlePerMinute is set per platform: add "platform".');
    state.settings = { ...state.settings, ...input };
    res.json(state.settings);
  });

  router.post('/meta-throttle', (req, res) => {
    const { platform, ...rule } = assertValid(MetaThrottleSettings, req.body ?? {}, 'meta throttle');
    res.json({ platform, ...state.metaThrottle.set(platform, rule) });
  });

  router.post('/tiktok/audit', (req, res) => {
    const input = assertValid(TikTokAuditSettings, req.body ?? {}, 'tiktok audit');
    state.tiktok.audit = { ...state.tiktok.audit, ...input };
    res.json(state.tiktok.audit);
  });

  router.post('/tiktok/limits', (req, res) => {
    const input = assertValid(TikTokLimitSettings, req.body ?? {}, 'tiktok limits');
    Object.assign(state.tiktok.limits, input);
    res.json({ verifiedUrlPrefixes: state.tiktok.limits.verifiedUrlPrefixes });
  });

  router.post('/reset', (_req, res) => {
    state.reset();
    res.status(204).end();
  });
}

function optionalPlatform(value: unknown): Platform | undefined {
  if (value === undefined || value === '') return undefined;
  if (!isPlatform(value))
    throw new AppError(
      'unsupported_platform',
      `Unknown platform ${JSON.stringify(value)}; use one of ${PLATFORMS.join(', ')}.`,
    );
  return value;
}

const controlErrorHandler: ErrorRequestHandler = (err, _req, res, _next) => {
  if (isAppError(err)) {
    res.status(err.status).json(err.toBody());
    return;
  }
  if ((err as { type?: string }).type === 'entity.parse.failed') {
    res.status(400).json({ error: 'The request body is not valid JSON.', code: 'invalid_json' });
    return;
  }
  res.status(500).json({ error: (err as Error).message ?? 'Internal error', code: 'internal_error' });
};
