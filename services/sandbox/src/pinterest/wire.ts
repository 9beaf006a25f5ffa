import type { ErrorRequestHandler, Request, Response } from 'express';
import type { FaultOperation } from '../faults';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';

/** A Pinterest error answer, `{ code, message }` (https://developers.pinterest.com/docs/api/v5/#tag/Errors). */
export class PinterestError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new PinterestError(400, 1, message);

/** The account behind the bearer token, holding `scope` (control-API tokens hold every scope). */
export function authed(state: SandboxState, req: Request, scope: string): SandboxUser {
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
  const user = bearer ? state.users.byAccessToken('pinterest', bearer) : undefined;
  if (!bearer || !user || user.revoked) throw new PinterestError(401, 2, 'Authentication failed.');
  const scopes = state.pinterest.tokenScopes.get(bearer);
  if (scopes && !scopes.includes(scope))
    throw new PinterestError(403, 29, `You are not permitted to access that resource (needs ${scope}).`);
  return user;
}

/** Sends the answer, unless a timeout fault asked for it to be lost (the work is done, the caller never hears). */
export function send(state: SandboxState, res: Response, status: number, body: unknown): void {
  if (res.locals.swallowAnswer) {
    state.held.hold(res);
    return;
  }
  res.status(status).json(body);
}

/**
 * Consumes a queued Pinterest fault. `error` answers its status (400 by default) with `{ code, message }`;
 * `throttle` answers 429 with the x-ratelimit-* headers (https://developers.pinterest.com/docs/reference/rate-limits/);
 * `timeout` holds the request, or lets it run and drops the answer (applied, the default).
 */
export function passFault(state: SandboxState, operation: Exclude<FaultOperation, 'any'>, res: Response): boolean {
  const fault = state.faults.take('pinterest', operation);
  if (!fault) return true;
  if (fault.mode === 'timeout') {
    if (fault.applied) {
      res.locals.swallowAnswer = true;
      return true;
    }
    state.held.hold(res);
    return false;
  }
  if (fault.mode === 'throttle')
    throw new PinterestError(fault.status ?? 429, fault.code ?? 8, fault.message ?? 'Rate limit exceeded.', {
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '60',
    });
  const status = fault.status ?? 400;
  throw new PinterestError(
    status,
    fault.code ?? (status >= 500 ? 0 : 1),
    fault.message ?? (status >= 500 ? 'Internal server error.' : 'Invalid parameters (injected failure).'),
  );
}

export function errorHandler(): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    if (err instanceof PinterestError) {
      res.status(err.status).set(err.headers).json({ code: err.code, message: err.message });
      return;
    }
    if ((err as { type?: string }).type === 'entity.parse.failed') {
      res.status(400).json({ code: 1, message: 'Invalid JSON body.' });
      return;
    }
    res.status(500).json({ code: 0, message: (err as Error)?.message ?? 'Internal error' });
  };
}

/** An optional string member no longer than `max` characters; anything else is refused as Pinterest does. */
export function optionalText(body: Record<string, unknown>, key: string, max: number): string | null {
  const value = body[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw badRequest(`${key} must be a string.`);
  if ([...value].length > max) throw badRequest(`${key} is longer than ${max} characters.`);
  return value;
}

export const isHttpUrl = (value: unknown): value is string =>
  typeof value === 'string' && /^https?:\/\/[^\s]+$/i.test(value) && value.length <= 2048;
