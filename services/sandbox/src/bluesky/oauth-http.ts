import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { ReceivedRequest } from '../requests';
import { AtprotoOAuthError, dpopChallenge } from './oauth-store';

/** The sandbox's origin as the caller reached it: the issuer, and the PDS at `${origin}/bluesky`. */
export function originOf(req: Request): string {
  return `${req.protocol}://${req.get('host')}`;
}

/** Where the emulated authorization server's endpoints live (https://atproto.com/specs/oauth#server-metadata). */
export const OAUTH_PATHS = {
  par: '/bluesky/oauth/par',
  authorize: '/bluesky/oauth/authorize',
  token: '/bluesky/oauth/token',
  revoke: '/bluesky/oauth/revoke',
  jwks: '/bluesky/oauth/jwks',
} as const;

/** Browser apps call these endpoints across origins: CORS as the reference server answers it, and its preflight. */
export const cors: RequestHandler = (req, res, next) => {
  res.set({
    'access-control-max-age': '86400',
    'access-control-allow-origin': '*',
    'access-control-allow-methods': '*',
    'access-control-allow-headers': 'Content-Type,DPoP',
  });
  if (req.method === 'OPTIONS') return void res.status(200).end();
  next();
};

/** Form fields that are secrets (codes, verifiers, refresh tokens, assertions): the request log shows that they came, not what. */
const SECRET_FIELDS = ['code', 'code_verifier', 'refresh_token', 'client_assertion'];

export const hideSecrets: RequestHandler = (_req, res, next) => {
  const received = res.locals.received as ReceivedRequest | undefined;
  if (received?.body)
    for (const key of SECRET_FIELDS) if (typeof received.body[key] === 'string') received.body[key] = '[hidden]';
  next();
};

/** An OAuth answer: no caching (RFC 6749 5.1) and a fresh DPoP nonce on every answer, success or not (RFC 9449 8.2). */
export function oauthHeaders(res: Response, nonce: string): void {
  res.set({
    'cache-control': 'no-store',
    pragma: 'no-cache',
    'dpop-nonce': nonce,
    'access-control-expose-headers': 'DPoP-Nonce, WWW-Authenticate',
  });
}

/** `{ error, error_description }`; DPoP failures add `WWW-Authenticate: DPoP …`; anything else is a sandbox bug (500 server_error). */
export const oauthErrorHandler: ErrorRequestHandler = (err: unknown, _req, res, _next) => {
  let e: AtprotoOAuthError;
  if (err instanceof AtprotoOAuthError) e = err;
  else if ((err as { type?: string })?.type === 'entity.parse.failed')
    e = new AtprotoOAuthError('invalid_request', 'Invalid request body');
  else if ((err as { type?: string })?.type === 'entity.too.large')
    e = new AtprotoOAuthError('invalid_request', 'Request body too large', 413);
  else e = new AtprotoOAuthError('server_error', 'Server error', 500);
  if (e.dpopChallenge) res.set('www-authenticate', dpopChallenge(e.error, e.description));
  res.status(e.status).json({ error: e.error, error_description: e.description });
};

/** The string fields of a form or JSON body. */
export function bodyFields(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  const body: unknown = req.body;
  if (body && typeof body === 'object')
    for (const [k, v] of Object.entries(body)) if (typeof v === 'string') out[k] = v;
  return out;
}
