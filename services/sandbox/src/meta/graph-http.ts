import type { Platform } from '@postbus/contracts';
import type { Logger } from '@postbus/kit';
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import type { FaultOperation } from '../faults';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import { GraphError, graphErrorForCode, invalidToken, missingToken, revokedToken, unknownPath } from './graph-error';

/** Express glue shared by the emulated Meta APIs (Threads now; Instagram and Facebook later). */

/** Graph takes parameters from the query string or a form/JSON body; the body wins. */
export function graphParams(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (source: unknown) => {
    if (!source || typeof source !== 'object') return;
    for (const [key, value] of Object.entries(source)) {
      if (typeof value === 'string') out[key] = value;
      else if (typeof value === 'number' || typeof value === 'boolean') out[key] = String(value);
      else if (Array.isArray(value)) out[key] = value.join(',');
    }
  };
  add(req.query);
  add(req.body);
  return out;
}

export function graphFields(params: Record<string, string>): string[] {
  return (params.fields ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
}

/** `Authorization: Bearer|OAuth <token>` or `access_token=`; sets res.locals.user or answers Meta's 190/2500. */
export function authenticate(state: SandboxState, platform: Platform): RequestHandler {
  return (req, res, next) => {
    const header = req.get('authorization') ?? '';
    const match = /^(?:Bearer|OAuth)\s+(\S+)$/i.exec(header.trim());
    const token = match?.[1] ?? graphParams(req).access_token;
    if (!token) throw missingToken();
    const user = state.users.byAccessToken(platform, token);
    if (!user) throw invalidToken();
    if (user.revoked) throw revokedToken();
    res.locals.user = user;
    next();
  };
}

export function currentUser(res: Response): SandboxUser {
  return res.locals.user as SandboxUser;
}

/** Sends a Graph answer, unless a timeout fault asked for the answer to be lost. */
export function sendGraph(
  state: SandboxState,
  res: Response,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.locals.swallowAnswer) {
    state.held.hold(res);
    return;
  }
  res.status(status).set(headers).json(body);
}

/**
 * Consumes a queued fault for this call, if any. `error`/`throttle` throw the Meta error;
 * `timeout` either holds the request now (applied=false) or lets it run and drops its answer.
 * Answers false when the request is already dealt with.
 */
export function passFault(
  state: SandboxState,
  platform: Platform,
  operation: Exclude<FaultOperation, 'any'>,
  res: Response,
): boolean {
  const fault = state.faults.take(platform, operation);
  if (!fault) return true;
  if (fault.mode === 'timeout') {
    if (fault.applied) {
      res.locals.swallowAnswer = true;
      return true;
    }
    state.held.hold(res);
    return false;
  }
  if (fault.mode === 'throttle') {
    throw graphErrorForCode(fault.code ?? 4, {
      status: fault.status ?? 429,
      subcode: fault.subcode,
      message: fault.message,
    });
  }
  const code = fault.code ?? (fault.status && fault.status >= 500 ? 2 : 100);
  throw graphErrorForCode(code, { status: fault.status, subcode: fault.subcode, message: fault.message });
}

/** Route middleware form of passFault. */
export function faultGate(
  state: SandboxState,
  platform: Platform,
  operation: Exclude<FaultOperation, 'any'>,
): RequestHandler {
  return (_req, res, next) => {
    if (passFault(state, platform, operation, res)) next();
  };
}

/** Graph's answer for any path the emulator does not know. */
export function unknownGraphPath(): RequestHandler {
  return (req: Request) => {
    throw unknownPath(req.method);
  };
}

/** Every error becomes a Meta envelope: GraphErrors as they are, bad bodies as code 100, bugs as code 1 (HTTP 500). */
export function graphErrorHandler(state: SandboxState, logger: Logger): ErrorRequestHandler {
  return (err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const graphError =
      err instanceof GraphError
        ? err
        : isBodyParseError(err)
          ? new GraphError(400, 100, '(#100) The request body could not be parsed.')
          : new GraphError(500, 1, 'An unknown error occurred', { isTransient: true });
    if (graphError !== err && graphError.code === 1)
      logger.error('unexpected sandbox error', { err: (err as Error)?.stack ?? String(err) });
    sendGraph(state, res, graphError.status, graphError.toBody(), graphError.extra.headers);
  };
}

function isBodyParseError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { type?: unknown }).type === 'entity.parse.failed';
}
