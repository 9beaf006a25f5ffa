import { randomBytes } from 'node:crypto';
import type { Platform } from '@postbus/contracts';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { GraphError } from '../meta/graph-error';
import type { SandboxState } from '../state';
import type { OAuthFault } from './oauth-store';
import { OAuthProblem } from './oauth-problem';

/** How each platform writes an OAuth failure on the wire. */
export type ErrorStyle = 'graph' | 'instagram-legacy' | 'flat' | 'tiktok-api' | 'google-api';

const logId = () => randomBytes(16).toString('hex').toUpperCase();

export function sendProblem(res: Response, style: ErrorStyle, problem: OAuthProblem): void {
  switch (style) {
    case 'graph': {
      const code =
        problem.error === 'invalid_client'
          ? 101
          : problem.status >= 500
            ? 2
            : problem.error === 'invalid_token'
              ? 190
              : 100;
      const err = new GraphError(problem.status, code, problem.description, {
        type: 'OAuthException',
        isTransient: problem.status >= 500,
      });
      res.status(err.status).json(err.toBody());
      return;
    }
    case 'instagram-legacy':
      res
        .status(problem.status)
        .json({ error_type: 'OAuthException', code: problem.status, error_message: problem.description });
      return;
    case 'flat':
      res
        .status(problem.status)
        .json({ error: problem.error, error_description: problem.description, log_id: logId() });
      return;
    case 'tiktok-api':
      res
        .status(problem.status)
        .json({ data: {}, error: { code: problem.error, message: problem.description, log_id: logId() } });
      return;
    case 'google-api':
      res.status(problem.status).json({
        error: {
          code: problem.status,
          message: problem.description,
          errors: [{ message: problem.description, domain: 'global', reason: problem.error }],
          status: problem.status === 401 ? 'UNAUTHENTICATED' : 'INVALID_ARGUMENT',
        },
      });
      return;
  }
}

/** The failure a queued fault stands for: a 5xx outage, or the OAuth error it names. */
export function faultProblem(fault: OAuthFault): OAuthProblem {
  if (fault.error)
    return new OAuthProblem(
      fault.error,
      `Sandbox injected ${fault.error}.`,
      fault.status >= 400 && fault.status < 500 ? fault.status : 400,
    );
  return new OAuthProblem(
    fault.status === 429 ? 'rate_limit_exceeded' : 'temporarily_unavailable',
    'The service is temporarily unavailable (sandbox fault).',
    fault.status,
  );
}

/** Answers a queued fault of this platform and operation, if any, before the handler runs. */
export function oauthFault(
  state: SandboxState,
  platform: Platform,
  operation: 'token' | 'profile',
  style: ErrorStyle,
): RequestHandler {
  return (req, res, next) => {
    const fault = state.oauth.takeFault(platform, operation);
    if (!fault) return next();
    if (fault.dropAnswer) {
      // The handler runs and changes state; the answer is lost on the way back, as on a broken connection.
      res.json = () => {
        req.socket.destroy();
        return res;
      };
      return next();
    }
    sendProblem(res, style, faultProblem(fault));
  };
}

/** OAuthProblems and Meta GraphErrors in the platform's format; anything else is a sandbox bug (500). */
export function wireErrors(style: ErrorStyle) {
  return (err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (err instanceof GraphError && (style === 'graph' || style === 'instagram-legacy')) {
      res
        .status(err.status)
        .set(err.extra.headers ?? {})
        .json(err.toBody());
      return;
    }
    if (err instanceof GraphError) {
      sendProblem(
        res,
        style,
        new OAuthProblem(err.code === 190 ? 'invalid_token' : 'invalid_request', err.message, err.status),
      );
      return;
    }
    if (err instanceof OAuthProblem) {
      sendProblem(res, style, err);
      return;
    }
    sendProblem(res, style, new OAuthProblem('server_error', (err as Error)?.message ?? 'Internal error', 500));
  };
}

/** Parameters from the query string and a form or JSON body (the body wins). */
export function params(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const source of [req.query, req.body as unknown]) {
    if (!source || typeof source !== 'object') continue;
    for (const [k, v] of Object.entries(source)) if (typeof v === 'string') out[k] = v;
  }
  return out;
}

/** `Authorization: Bearer|OAuth <token>` or `access_token=`. */
export function bearerOf(req: Request): string | undefined {
  const match = /^(?:Bearer|OAuth)\s+(\S+)$/i.exec((req.get('authorization') ?? '').trim());
  return match?.[1] ?? params(req).access_token;
}

/** Where the sandbox serves an account's picture, as seen by the caller. */
export function avatarUrl(req: Request, userId: string): string {
  return `${req.protocol}://${req.get('host')}/__sandbox/oauth/avatars/${encodeURIComponent(userId)}.svg`;
}
