import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express, NextFunction, Request, Response } from 'express';
import { AppError, Rpc, type Principal, type Scope } from '@postbus/contracts';
import type { RpcClient } from '@postbus/bus';
import type { Lifecycle } from '@postbus/kit';
import type { PrincipalCache } from './api-key.strategy';
import { bearerCredential } from './bearer';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express's own extension point for what middleware adds to a request
  namespace Express {
    interface Request {
      /** The verified caller, set by apiKeyAuth. */
      user?: Principal;
    }
  }
}

/** Listens (on every interface unless told otherwise, so containers can reach it), registers a graceful close, and answers a loopback URL. */
export async function listen(
  app: Express,
  lifecycle: Lifecycle,
  opts: { port: number; host?: string; name?: string },
): Promise<{ server: Server; port: number; url: string }> {
  const server = app.listen(opts.port, opts.host ?? '0.0.0.0');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const port = (server.address() as AddressInfo).port;
  lifecycle.onStop(
    opts.name ?? 'http',
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  );
  return { server, port, url: `http://127.0.0.1:${port}` };
}

/**
 * Express middleware resolving `Authorization: Bearer <API key>` to a Principal through auth
 * (cached briefly), then checking the scope. Used by the gateway and by any service that
 * serves HTTP of its own (uploads, pages) so that no path trusts a caller it has not verified.
 * A cached verdict admits the request without a promise or an allocation beyond the token's hash.
 */
export function apiKeyAuth(rpc: RpcClient, cache: PrincipalCache) {
  return (scope?: Scope) => (req: Request, _res: Response, next: NextFunction) => {
    const admit = (principal: Principal) => {
      if (scope && !principal.scopes.includes(scope))
        return next(new AppError('insufficient_scope', `This key lacks the ${scope} scope.`));
      req.user = principal;
      next();
    };
    const credential = bearerCredential(req);
    if (!credential) return next(new AppError('missing_api_key', 'Send your API key as Authorization: Bearer <key>.'));
    const hash = credential.digest.toString('hex');
    const cached = cache.get(hash);
    if (cached) return admit(cached);
    rpc.call(Rpc.authVerifyKey, { token: credential.token }).then((principal) => {
      cache.set(hash, principal);
      admit(principal);
    }, next);
  };
}

export { PrincipalCache, STALE_VERDICT_EVENTS } from './api-key.strategy';
export { bearerCredential, bearerToken, type BearerCredential } from './bearer';

/** The fields of the form or JSON object express parsed into `req.body`; none when it holds no object. */
export function bodyFields(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
}

/**
 * What body-parser and http-errors put on the errors they throw: an HTTP status and a type such
 * as `entity.too.large`. Absent on other errors and on thrown values that are not objects.
 */
export function httpErrorFields(err: unknown): { status?: number; type?: string } {
  if (typeof err !== 'object' || err === null) return {};
  const { status, type } = err as { status?: unknown; type?: unknown };
  return { status: typeof status === 'number' ? status : undefined, type: typeof type === 'string' ? type : undefined };
}
