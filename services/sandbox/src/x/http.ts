import type { ErrorRequestHandler, Request, Response } from 'express';
import type { Logger } from '@postbus/kit';
import type { FaultOperation } from '../faults';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';

/** An X API v2 problem answer, `{ title, detail, type, status }`: https://docs.x.com/x-api/fundamentals/response-codes-and-errors */
export class XProblemError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export const invalidRequest = (detail: string) =>
  new XProblemError(400, 'Invalid Request', detail, { type: 'https://api.twitter.com/2/problems/invalid-request' });

/** The user behind `Authorization: Bearer`, holding every scope the call needs. */
export function xUser(state: SandboxState, req: Request, scopes: string[]): SandboxUser {
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
  const user = bearer ? state.users.byAccessToken('x', bearer) : undefined;
  if (!user || user.revoked) throw new XProblemError(401, 'Unauthorized', 'Unauthorized', { type: 'about:blank' });
  const granted = state.x.tokenScopes.get(bearer!);
  const missing = granted ? scopes.filter((s) => !granted.includes(s)) : [];
  if (missing.length)
    throw new XProblemError(403, 'Forbidden', `Missing required scopes: ${missing.join(', ')}.`, {
      type: 'https://api.twitter.com/2/problems/not-authorized-for-resource',
    });
  return user;
}

/** Counts the call in the user's 15-minute window, sets the x-rate-limit-* headers and answers 429 past the limit. */
export function countCall(state: SandboxState, res: Response, key: string, limit: number): void {
  const w = state.x.count(key, limit, state.now());
  const headers = {
    'x-rate-limit-limit': String(w.limit),
    'x-rate-limit-remaining': String(w.remaining),
    'x-rate-limit-reset': String(w.resetAt),
  };
  res.set(headers);
  if (w.over) throw new XProblemError(429, 'Too Many Requests', 'Too Many Requests', { type: 'about:blank' }, headers);
}

/**
 * Consumes a queued X fault. `error` with reason `UsageCapExceeded` answers 429 usage-capped, with
 * `client-not-enrolled` 403 client-forbidden, with `CreditsDepleted` 402; otherwise its status (400
 * by default). `throttle` answers 429 with x-rate-limit-* headers; `timeout` holds the request, or
 * lets it run and drops the answer (applied, the default).
 */
export function passFault(state: SandboxState, operation: Exclude<FaultOperation, 'any'>, res: Response): boolean {
  const fault = state.faults.take('x', operation);
  if (!fault) return true;
  if (fault.mode === 'timeout') {
    if (fault.applied) {
      res.locals.swallowAnswer = true;
      return true;
    }
    state.held.hold(res);
    return false;
  }
  const reset = String(Math.ceil((state.now() + X_RESET_MS) / 1000));
  if (fault.mode === 'throttle')
    throw new XProblemError(
      429,
      'Too Many Requests',
      fault.message ?? 'Too Many Requests',
      {},
      {
        'x-rate-limit-limit': '100',
        'x-rate-limit-remaining': '0',
        'x-rate-limit-reset': reset,
      },
    );
  throw (
    planFault(fault.reason, fault.message) ??
    new XProblemError(fault.status ?? 400, 'Error', fault.message ?? 'Sandbox injected failure')
  );
}

const X_RESET_MS = 15 * 60_000;

/** The answers of an app whose pay-per-use plan is the limit, as X sends them. */
function planFault(reason: string | undefined, message: string | undefined): XProblemError | undefined {
  if (reason === 'UsageCapExceeded')
    return new XProblemError(429, 'UsageCapExceeded', message ?? 'Usage cap exceeded: Monthly product cap', {
      type: 'https://api.twitter.com/2/problems/usage-capped',
      period: 'Monthly',
      scope: 'Product',
    });
  if (reason === 'client-not-enrolled')
    return new XProblemError(
      403,
      'Client Forbidden',
      message ??
        'When authenticating requests to the Twitter API v2 endpoints, you must use keys and tokens from a Twitter developer App that is attached to a Project.',
      {
        type: 'https://api.twitter.com/2/problems/client-forbidden',
        reason: 'client-not-enrolled',
        required_enrollment: 'Appropriate Level of API Access',
      },
    );
  if (reason === 'CreditsDepleted')
    return new XProblemError(402, 'CreditsDepleted', message ?? 'Your enrolled account does not have any credits.', {
      type: 'https://api.twitter.com/2/problems/credits',
    });
  return undefined;
}

/** Sends the answer, unless a timeout fault asked for it to be lost (the work is done, the caller never hears). */
export function send(state: SandboxState, res: Response, status: number, body: unknown): void {
  if (res.locals.swallowAnswer) {
    state.held.hold(res);
    return;
  }
  res.status(status).json(body);
}

export function xErrorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, _req, res, _next) => {
    let e: XProblemError;
    if (err instanceof XProblemError) e = err;
    else if ((err as { type?: string })?.type === 'entity.too.large')
      e = new XProblemError(413, 'Payload Too Large', 'The request body is too large.');
    else if ((err as { type?: string })?.type === 'entity.parse.failed')
      e = invalidRequest('The body is not valid JSON.');
    else {
      logger.warn('x emulator failed', { err });
      e = new XProblemError(500, 'Internal Error', 'Something went wrong.');
    }
    res
      .status(e.status)
      .set(e.headers)
      .json({ title: e.title, detail: e.detail, type: 'about:blank', status: e.status, ...e.extra });
  };
}
