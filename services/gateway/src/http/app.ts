import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import type { Principal } from '@postbus/contracts';
import type { Bus, RpcClient } from '@postbus/bus';
import type { Logger } from '@postbus/kit';
import { apiKeyAuth, type PrincipalCache } from '@postbus/service';
import { bindings, expressPath } from '../routes/route-table';
import { discoveryRouter } from './discovery';
import { errorHandler, notFound } from './errors';
import { healthHandler } from './health';
import { proxyTo, type ProxyRoute } from './proxy';
import { requestId } from './request-id';

export interface GatewayDeps {
  bus: Bus;
  rpc: RpcClient;
  cache: PrincipalCache;
  logger: Logger;
  bodyLimit: string;
  publicBaseUrl: () => string;
  /** Paths streamed to the service that owns them, matched before any JSON route. */
  proxies: ProxyRoute[];
  /** Per-key rate limit, run once the key is known (none when absent). */
  rateLimit?: RequestHandler;
  /** Times every request (HTTP latency histogram); runs first. */
  observeHttp?: RequestHandler;
}

export function createApp(deps: GatewayDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', true);

  if (deps.observeHttp) app.use(deps.observeHttp);
  app.use(requestId);
  for (const p of deps.proxies) {
    const forward = proxyTo(p.target, deps.publicBaseUrl);
    app.use(p.prefix, (req, res, next) => {
      if (p.methods && !p.methods.includes(req.method)) return next();
      if (p.match && !p.match.test(req.path)) return next();
      forward(req, res, next);
    });
  }
  app.use(express.json({ limit: deps.bodyLimit, type: ['application/json', 'application/*+json'] }));

  app.use(discoveryRouter(deps.publicBaseUrl));

  app.get('/api/health', healthHandler(deps.bus));

  const auth = apiKeyAuth(deps.rpc, deps.cache);
  const limit: RequestHandler = deps.rateLimit ?? ((_req, _res, next) => next());
  for (const b of bindings) {
    app[b.route.method](expressPath(b.route.path), auth(b.route.scope), limit, async (req: Request, res: Response) => {
      const principal = req.user as Principal;
      const data = await deps.rpc.call(b.route.rpc, b.input(req) as never, principal, { timeoutMs: b.timeoutMs });
      const { status, body } = b.reply ? b.reply(data) : { status: b.route.status, body: data };
      res.status(status).json(body);
    });
  }

  app.use(notFound);
  app.use(errorHandler(deps.logger));
  return app;
}
