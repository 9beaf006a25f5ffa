import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import { AppError, deprecationHeaders, isAppError, Rpc } from '@postbus/contracts';
import type { RpcClient } from '@postbus/bus';
import type { Logger } from '@postbus/kit';
import { bearerToken } from '@postbus/service';
import { methodNotAllowed } from './mcp-endpoint';

export interface LegacyHostDeps {
  rpc: RpcClient;
  /** The agent endpoint itself (the handlers behind {base_url}/api/mcp). */
  endpoint: RequestHandler[];
  /** DNS-rebinding protection, as on {base_url}/api/mcp. */
  foreignCallers: RequestHandler;
  baseUrl: string;
  logger: Logger;
}

/**
 * `{mcp_host}`, deprecated: `POST /auth` exchanges an API key for a short-lived JWT (auth signs it),
 * and `/mcp` is the agent endpoint. Every answer says it is deprecated (`Deprecation`, `Sunset`)
 * and links to its successor.
 */
export function legacyHostApp(deps: LegacyHostDeps): Express {
  const app = express();
  app.disable('x-powered-by');

  app.post('/auth', async (req, res) => {
    res.set(deprecationHeaders(`${deps.baseUrl}/.well-known/oauth-authorization-server`));
    res.setHeader('Cache-Control', 'no-store');
    const key = bearerToken(req);
    if (!key) throw new AppError('missing_api_key', 'Send your API key as Authorization: Bearer <key>.');
    res.json(await deps.rpc.call(Rpc.authExchangeKey, { token: key }));
  });

  const deprecated: RequestHandler = (_req, res, next) => {
    res.set(deprecationHeaders(`${deps.baseUrl}/api/mcp`));
    next();
  };
  app
    .route('/mcp')
    .all(deprecated, deps.foreignCallers)
    .post(deps.endpoint)
    .get(methodNotAllowed)
    .delete(methodNotAllowed);

  app.use((_req, res) => {
    res.status(404).json({ error: 'Not found; this host serves only POST /auth and /mcp.', code: 'not_found' });
  });
  app.use(((err: unknown, _req, res, _next) => {
    if (res.headersSent) return;
    if (isAppError(err)) return res.status(err.status).json(err.toBody());
    deps.logger.error('mcp host request failed', {
      err: err instanceof Error ? (err.stack ?? String(err)) : String(err),
    });
    res.status(500).json({ error: 'Internal error.', code: 'internal_error' });
  }) as ErrorRequestHandler);
  return app;
}
