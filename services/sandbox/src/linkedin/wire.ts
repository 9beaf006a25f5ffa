import type { ErrorRequestHandler, NextFunction, Request, Response } from 'express';
import type { Logger } from '@postbus/kit';
import type { FaultOperation } from '../faults';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';

/**
 * A LinkedIn error answer, `{ status, serviceErrorCode, code, message }`:
 * https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/error-handling
 */
export class LinkedInError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly serviceErrorCode = 100,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code = 'INVALID_REQUEST') => new LinkedInError(400, code, message);
export const unprocessable = (message: string, code = 'UNPROCESSABLE_ENTITY') => new LinkedInError(422, code, message);

/** Sends the answer, unless a timeout fault asked for it to be lost (the work is done, the caller never hears). */
export function send(
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
  res.status(status).set(headers);
  if (body === undefined) res.end();
  else res.json(body);
}

/**
 * Consumes a queued LinkedIn fault. `error` answers its status (500 by default) with `message`;
 * `throttle` answers 429 as LinkedIn does when a daily limit is spent
 * (https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/rate-limits); `timeout` holds
 * the request, or lets it run and drops the answer (applied, the default).
 */
export function passFault(state: SandboxState, operation: Exclude<FaultOperation, 'any'>, res: Response): boolean {
  const fault = state.faults.take('linkedin', operation);
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
    throw new LinkedInError(
      fault.status ?? 429,
      'TOO_MANY_REQUESTS',
      fault.message ?? 'Resource level throttle MEMBER DAY limit for calls to this resource is reached.',
      fault.code ?? 101,
    );
  const status = fault.status ?? 500;
  throw new LinkedInError(
    status,
    fault.reason ?? (status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'UNPROCESSABLE_ENTITY'),
    fault.message ?? (status >= 500 ? 'Internal Server Error' : 'Injected failure'),
    fault.code ?? (status >= 500 ? 0 : 100),
  );
}

/**
 * The member behind the bearer token: 401 INVALID_ACCESS_TOKEN (serviceErrorCode 65600) for an unknown
 * or expired one, 65601 REVOKED_ACCESS_TOKEN for a revoked one
 * (https://learn.microsoft.com/en-us/linkedin/shared/authentication/authorization-code-flow#step-5-refresh-access-token).
 */
export function memberOf(state: SandboxState, req: Request): SandboxUser {
  const token = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
  const user = token ? state.users.byAccessToken('linkedin', token) : undefined;
  if (!user) throw new LinkedInError(401, 'INVALID_ACCESS_TOKEN', 'Invalid access token', 65600);
  if (user.revoked)
    throw new LinkedInError(
      401,
      'REVOKED_ACCESS_TOKEN',
      'The token used in the request has been revoked by the user',
      65601,
    );
  return user;
}

/**
 * Versioned APIs need `LinkedIn-Version: YYYYMM` of a month LinkedIn still serves and Rest.li 2.0
 * (https://learn.microsoft.com/en-us/linkedin/marketing/versioning): missing 400 VERSION_MISSING,
 * malformed 400 VERSION_INVALID, retired or future 426 NONEXISTENT_VERSION.
 */
export function versionGate(state: SandboxState) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const version = req.get('linkedin-version');
    if (!version)
      throw new LinkedInError(
        400,
        'VERSION_MISSING',
        'A version must be present. Please specify a version by adding the LinkedIn-Version header.',
      );
    if (!/^\d{6}(\.\d{2})?$/.test(version))
      throw new LinkedInError(400, 'VERSION_INVALID', `Invalid version format ${version.slice(0, 20)}`);
    if (!servedVersion(state.linkedin.limits, version.slice(0, 6)))
      throw new LinkedInError(426, 'NONEXISTENT_VERSION', `Requested version ${version} is not active`);
    if (req.get('x-restli-protocol-version') !== '2.0.0')
      throw badRequest('X-Restli-Protocol-Version: 2.0.0 is required by this API.', 'PROTOCOL_VERSION_MISSING');
    next();
  };
}

function servedVersion(limits: { newestVersion: string; versionsServed: number }, version: string): boolean {
  const months = (v: string) => Number(v.slice(0, 4)) * 12 + Number(v.slice(4, 6)) - 1;
  const age = months(limits.newestVersion) - months(version);
  return (
    Number(version.slice(4, 6)) >= 1 && Number(version.slice(4, 6)) <= 12 && age >= 0 && age < limits.versionsServed
  );
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, _req, res, _next) => {
    if (err instanceof LinkedInError) {
      res
        .status(err.status)
        .json({ status: err.status, serviceErrorCode: err.serviceErrorCode, code: err.code, message: err.message });
      return;
    }
    const type = (err as { type?: string }).type;
    if (type === 'entity.too.large') {
      res
        .status(413)
        .json({ status: 413, serviceErrorCode: 100, code: 'PAYLOAD_TOO_LARGE', message: 'Request entity too large' });
      return;
    }
    if (type === 'entity.parse.failed') {
      res
        .status(400)
        .json({ status: 400, serviceErrorCode: 100, code: 'INVALID_JSON', message: 'Malformed JSON body' });
      return;
    }
    logger.error('LinkedIn emulator failed', { err });
    res
      .status(500)
      .json({ status: 500, serviceErrorCode: 0, code: 'INTERNAL_SERVER_ERROR', message: 'Internal Server Error' });
  };
}
