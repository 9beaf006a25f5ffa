import express, {
  type ErrorRequestHandler,
  type Express,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import type { Post, Principal } from '@postbus/contracts';
import type { Bus, RpcClient } from '@postbus/bus';
import type { Logger } from '@postbus/kit';
import { apiKeyAuth, PostWaiters, type PrincipalCache } from '@postbus/service';
import { bindings, expressPath } from '../routes/route-table';
import { deprecationNotice } from './deprecation';
import { discoveryRouter } from './discovery';
import { errorHandler, notFound } from './errors';
import { countRefusedKey, credentialLimit, proxyGuard, refusedAddressFirst, type FloodGuards } from './flood-guards';
import { answeredNotModified } from './conditional-get';
import { FinalPosts } from './final-posts';
import { healthHandler } from './health';
import { answerPost } from './post-answer';
import { proxyTo, type ProxyRoute } from './proxy';
import { requestId } from './request-id';
import { strictTransportSecurity } from './strict-transport';

export interface GatewayDeps {
  bus: Bus;
  rpc: RpcClient;
  cache: PrincipalCache;
  logger: Logger;
  bodyLimit: string;
  publicBaseUrl: () => string;
  /** Paths streamed to the service that owns them, matched before any JSON route. */
  proxies: ProxyRoute[];
  /** Per-credential, per-address and per-attempt limits (none when absent). */
  guards?: FloodGuards;
  /** Proxies in front of the gateway whose X-Forwarded-For is believed (0: the client is the peer). */
  trustProxyHops?: number;
  /** Times every request (HTTP latency histogram); runs first. */
  observeHttp?: RequestHandler;
  /** Longest silence of a service behind a proxied path (GATEWAY_UPSTREAM_TIMEOUT_MS). */
  upstreamTimeoutMs?: number;
  /** Callers waiting for a post's outcome, woken by result events (LONG_POLL_MAX_WAITERS). */
  waiters?: PostWaiters;
  /** Answers of settled posts kept in memory (GATEWAY_FINAL_POSTS_CACHE_BYTES; none when absent). */
  finals?: FinalPosts;
}

const DEFAULT_MAX_WAITERS = 1000;

export function createApp(deps: GatewayDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // Only the hops we know of are believed: a client cannot name its own address in X-Forwarded-For.
  app.set('trust proxy', deps.trustProxyHops ?? 0);

  if (deps.observeHttp) app.use(deps.observeHttp);
  app.use(strictTransportSecurity(deps.publicBaseUrl));
  app.use(requestId);
  for (const p of deps.proxies) {
    const forward = proxyTo(p.target, deps.publicBaseUrl, deps.upstreamTimeoutMs);
    const guard: RequestHandler = deps.guards ? proxyGuard(p, deps.guards) : (_req, _res, next) => next();
    app.use(p.prefix, (req, res, next) => {
      if (p.methods && !p.methods.includes(req.method)) return next();
      if (p.match && !p.match.test(req.path)) return next();
      guard(req, res, (err?: unknown) => (err ? next(err) : forward(req, res, next)));
    });
  }
  app.use(express.json({ limit: deps.bodyLimit, type: ['application/json', 'application/*+json'] }));
  // Bulk creates may send CSV; bounded like JSON.
  app.use(express.text({ limit: deps.bodyLimit, type: 'text/csv' }));

  app.use(discoveryRouter(deps.publicBaseUrl));

  app.get('/api/health', healthHandler(deps.bus));

  const auth = apiKeyAuth(deps.rpc, deps.cache);
  const pass: RequestHandler = (_req, _res, next) => next();
  const before = deps.guards ? refusedAddressFirst(deps.guards) : pass;
  const refused: ErrorRequestHandler = deps.guards
    ? countRefusedKey(deps.guards)
    : (err, _req, _res, next) => next(err);
  const limit = deps.guards ? credentialLimit(deps.guards) : pass;
  const waiters = deps.waiters ?? new PostWaiters(DEFAULT_MAX_WAITERS);
  const finals = deps.finals ?? new FinalPosts(0);
  for (const b of bindings) {
    app[b.route.method](
      expressPath(b.route.path),
      before,
      auth(b.route.scope),
      refused,
      deprecationNotice(b.route.scope, deps.publicBaseUrl),
      limit,
      async (req: Request, res: Response) => {
        const principal = req.user as Principal;
        if (b.serve) return b.serve({ rpc: deps.rpc, principal, req, res });
        const read = () => deps.rpc.call(b.route.rpc, b.input(req), principal, { timeoutMs: b.timeoutMs });
        // Only GET /api/v1/posts/{id} waits for an outcome, and it answers the post as its RPC returns it.
        if (b.waitsForOutcome)
          return answerPost({ req, res, principal, waiters, finals, read: read as () => Promise<Post> });
        const data = await read();
        const { status, body } = b.reply ? b.reply(data) : { status: b.route.status, body: data };
        if (b.version && status === 200 && answeredNotModified(req, res, b.version(body))) return;
        res.status(status).json(body);
      },
    );
  }

  app.use(notFound);
  app.use(errorHandler(deps.logger));
  return app;
}
