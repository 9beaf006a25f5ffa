import { randomBytes } from 'node:crypto';
import type { Logger } from '@postbus/kit';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { FaultOperation } from '../faults';
import { stringifyWithInt64 } from '../int64-json';
import { platformLatency } from '../platform-settings';
import { recordRequests } from '../requests';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import { queryText } from '../wire-text';

/** An answer in TikTok's envelope `{data, error:{code, message, log_id}}`. */
export class TikTokError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const invalidParam = (message: string) => new TikTokError(400, 'invalid_param', message);

export function sendTikTok(state: SandboxState, res: Response, data: Record<string, unknown>, status = 200): void {
  if (res.locals.swallowAnswer) {
    state.held.hold(res);
    return;
  }
  // BigInt values go out as bare JSON numbers, digit for digit, as TikTok sends its int64 ids.
  res
    .status(status)
    .type('application/json')
    .send(stringifyWithInt64({ data, error: { code: 'ok', message: '', log_id: logId() } }));
}

/** Records, delays and throttles a TikTok request. */
export function tiktokGate(state: SandboxState): RequestHandler[] {
  const throttle: RequestHandler = (req, _res, next) => {
    const limit = state.settingsFor('tiktok').throttlePerMinute;
    if (
      limit !== null &&
      state.platformSettings.overLimit(
        `tiktok:${req.get('authorization') ?? queryText(req.query.upload_id)}`,
        limit,
        state.now(),
      )
    ) {
      throw new TikTokError(429, 'rate_limit_exceeded', 'The API rate limit was exceeded. Please try again later.', {
        'retry-after': '1',
      });
    }
    next();
  };
  return [
    recordRequests(state.requests, 'tiktok', () => state.now()),
    platformLatency(() => state.settingsFor('tiktok').latencyMs),
    throttle,
  ];
}

/** `Authorization: Bearer <token>` → res.locals.user and res.locals.token; else 401 access_token_invalid. */
export function tiktokAuth(state: SandboxState): RequestHandler {
  return (req, res, next) => {
    const token = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
    const user = token ? state.users.byAccessToken('tiktok', token) : undefined;
    if (!token || !user || user.revoked) {
      throw new TikTokError(401, 'access_token_invalid', 'The access token is invalid or not found in the request.');
    }
    res.locals.user = user;
    res.locals.token = token;
    next();
  };
}

export function tiktokUser(res: Response): SandboxUser {
  return res.locals.user as SandboxUser;
}

/** Per-token request limits of the Content Posting API (4: creator_info 20/min, init 6/min, status 30/min). */
export function tiktokRateLimit(state: SandboxState, bucket: 'creatorInfo' | 'init' | 'status'): RequestHandler {
  return (_req, res, next) => {
    if (!state.tiktok.allow(res.locals.token as string, bucket, state.tiktok.limits.rpm[bucket], state.now())) {
      throw new TikTokError(429, 'rate_limit_exceeded', 'The API rate limit was exceeded. Please try again later.');
    }
    next();
  };
}

/** Consumes a queued fault for this call: error/throttle answer TikTok's envelope, timeout holds or swallows the answer. */
export function tiktokFault(state: SandboxState, operation: Exclude<FaultOperation, 'any'>): RequestHandler {
  return (_req, res, next) => {
    const fault = state.faults.take('tiktok', operation);
    if (!fault) return next();
    if (fault.mode === 'timeout') {
      if (!fault.applied) return state.held.hold(res);
      res.locals.swallowAnswer = true;
      return next();
    }
    if (fault.mode === 'throttle') {
      throw new TikTokError(
        fault.status ?? 429,
        fault.reason ?? 'rate_limit_exceeded',
        fault.message ?? 'The API rate limit was exceeded.',
        { 'retry-after': '1' },
      );
    }
    const status = fault.status ?? 500;
    throw new TikTokError(
      status,
      fault.reason ?? (status >= 500 ? 'internal_error' : 'invalid_param'),
      fault.message ?? 'Sandbox injected error.',
    );
  };
}

export function tiktokErrorHandler(state: SandboxState, logger: Logger): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    const e =
      err instanceof TikTokError
        ? err
        : (err as { type?: string }).type === 'entity.parse.failed'
          ? invalidParam('The request body is not valid JSON.')
          : new TikTokError(500, 'internal_error', 'Internal error.');
    if (!(err instanceof TikTokError) && e.code === 'internal_error')
      logger.error('unexpected sandbox error', { err: (err as Error)?.stack ?? String(err) });
    if (res.locals.swallowAnswer) return state.held.hold(res);
    res
      .status(e.status)
      .set(e.headers)
      .json({ data: {}, error: { code: e.code, message: e.message, log_id: logId() } });
  };
}

function logId(): string {
  return `${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}${randomBytes(9).toString('hex').toUpperCase()}`;
}
