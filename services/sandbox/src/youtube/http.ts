import type { Logger } from '@postbus/kit';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { FaultOperation } from '../faults';
import { platformLatency } from '../platform-settings';
import { recordRequests } from '../requests';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';

/** A Google API error: `{"error":{"code","message","errors":[{"message","domain","reason"}]}}`. */
export class YouTubeError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
    readonly domain = 'youtube.video',
  ) {
    super(message);
  }

  toBody(): Record<string, unknown> {
    return {
      error: {
        code: this.status,
        message: this.message,
        errors: [{ message: this.message, domain: this.domain, reason: this.reason }],
      },
    };
  }
}

export const badRequest = (reason: string, message: string) => new YouTubeError(400, reason, message);

/** Records, delays and throttles a YouTube request. */
export function youtubeGate(state: SandboxState): RequestHandler[] {
  const throttle: RequestHandler = (req, _res, next) => {
    const limit = state.settingsFor('youtube').throttlePerMinute;
    if (limit !== null && state.platformSettings.overLimit(`youtube:${req.get('authorization')}`, limit, state.now())) {
      throw new YouTubeError(
        429,
        'rateLimitExceeded',
        'The request cannot be completed because you have exceeded your quota.',
        'youtube.quota',
      );
    }
    next();
  };
  return [
    recordRequests(state.requests, 'youtube', () => state.now()),
    platformLatency(() => state.settingsFor('youtube').latencyMs),
    throttle,
  ];
}

/** `Authorization: Bearer <token>` of a YouTube user, else 401 authError. */
export function youtubeAuth(state: SandboxState): RequestHandler {
  return (req, res, next) => {
    const token = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
    const user = token ? state.users.byAccessToken('youtube', token) : undefined;
    if (!user || user.revoked)
      throw new YouTubeError(401, 'authError', 'Request had invalid authentication credentials.', 'global');
    res.locals.user = user;
    next();
  };
}

export function youtubeUser(res: Response): SandboxUser {
  return res.locals.user as SandboxUser;
}

/** Consumes a queued fault: error/throttle answer a Google error (reason from the fault), timeout holds or swallows the answer. */
export function passYouTubeFault(
  state: SandboxState,
  operation: Exclude<FaultOperation, 'any'>,
  res: Response,
): boolean {
  const fault = state.faults.take('youtube', operation);
  if (!fault) return true;
  if (fault.mode === 'timeout') {
    if (!fault.applied) {
      state.held.hold(res);
      return false;
    }
    res.locals.swallowAnswer = true;
    return true;
  }
  if (fault.mode === 'throttle') {
    throw new YouTubeError(
      fault.status ?? 429,
      fault.reason ?? 'rateLimitExceeded',
      fault.message ?? 'Rate limit exceeded.',
      'youtube.quota',
    );
  }
  const status = fault.status ?? 503;
  throw new YouTubeError(
    status,
    fault.reason ?? (status >= 500 ? 'backendError' : 'badRequest'),
    fault.message ?? 'Sandbox injected error.',
    'global',
  );
}

export function youtubeErrorHandler(state: SandboxState, logger: Logger): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    const e =
      err instanceof YouTubeError
        ? err
        : (err as { type?: string }).type === 'entity.parse.failed'
          ? badRequest('parseError', 'Parse Error')
          : new YouTubeError(500, 'backendError', 'Backend Error', 'global');
    if (!(err instanceof YouTubeError) && e.reason === 'backendError')
      logger.error('unexpected sandbox error', { err: (err as Error)?.stack ?? String(err) });
    if (res.locals.swallowAnswer) return state.held.hold(res);
    res.status(e.status).json(e.toBody());
  };
}
