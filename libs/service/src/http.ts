import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import passport from 'passport';
import { AppError, type Principal, type Scope } from '@postbus/contracts';
import type { RpcClient } from '@postbus/bus';
import type { Lifecycle } from '@postbus/kit';
import { ApiKeyStrategy, PrincipalCache } from './api-key.strategy';

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
 */
export function apiKeyAuth(rpc: RpcClient, cache: PrincipalCache) {
  const strategy = new ApiKeyStrategy(rpc, cache);
  const authenticator = new passport.Passport();
  authenticator.use(strategy);
  return (scope?: Scope) => (req: Request, res: Response, next: NextFunction) =>
    // passport types what authenticate() answers as `any`; it is Express middleware.
    (
      authenticator.authenticate(strategy.name, { session: false }, (err: unknown, principal: Principal | false) => {
        if (err) return next(err);
        if (!principal)
          return next(new AppError('missing_api_key', 'Send your API key as Authorization: Bearer <key>.'));
        if (scope && !principal.scopes.includes(scope))
          return next(new AppError('insufficient_scope', `This key lacks the ${scope} scope.`));
        req.user = principal;
        next();
      }) as RequestHandler
    )(req, res, next);
}

export { ApiKeyStrategy, PrincipalCache, STALE_VERDICT_EVENTS, bearerToken } from './api-key.strategy';

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
