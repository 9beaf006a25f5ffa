import express from 'express';
import { runMain, type Logger } from '@postbus/kit';
import {
  bootService,
  listen,
  PostWaiters,
  PrincipalCache,
  STALE_VERDICT_EVENTS,
  type ServiceRuntime,
} from '@postbus/service';
import { readConfig } from './config';
import { refuseForeignCallers } from './entry-points/http/caller-origin.guard';
import { buildCallerOriginPolicy } from './entry-points/http/caller-origin.policy';
import { protectedResourceHandler, serverCardHandler } from './entry-points/http/discovery';
import { ICON_PATH, iconHandler } from './entry-points/http/icon';
import { legacyHostApp } from './entry-points/http/legacy-host';
import { mcpEndpoint, methodNotAllowed } from './entry-points/http/mcp-endpoint';
import { buildToolRegistry } from './tools/tool-registry';

/** What an HTTP error from a library (http-errors, as express raises for a bad request) may carry. */
interface HttpErrorFields {
  status?: unknown;
  /** True when the message is meant for the client. */
  expose?: unknown;
  message?: unknown;
}

export async function start(env?: Record<string, string | undefined>) {
  const config = readConfig(env);
  const svc = await bootService({ name: 'mcp', config });
  const baseUrl = config.PUBLIC_BASE_URL.replace(/\/$/, '');
  const cache = new PrincipalCache(config.AUTH_CACHE_MS);
  await forgetStaleVerdicts(svc, cache);
  const outcomes = await hearPostOutcomes(svc);

  // No body parser for the whole app: the endpoint reads its own body, bounded, once the caller is known.
  const endpoint = mcpEndpoint({
    rpc: svc.bus.rpc,
    cache,
    tools: buildToolRegistry(),
    logger: svc.logger,
    baseUrl,
    requireAuthForAll: config.MCP_REQUIRE_AUTH_FOR_ALL,
    outcomes,
  });
  const foreignCallers = refuseForeignCallers(
    buildCallerOriginPolicy({
      publicBaseUrl: baseUrl,
      extraHosts: config.MCP_ALLOWED_HOSTS,
      extraOrigins: config.MCP_ALLOWED_ORIGINS,
      production: config.POSTBUS_ENV === 'production',
    }),
  );
  // Stopped after the listeners (stops run in reverse): exchanges still in flight then end.
  svc.lifecycle.onStop('mcp handler', () => endpoint.close());
  const app = mcpApp(endpoint.handlers, foreignCallers, baseUrl, svc.logger);

  const http = await listen(app, svc.lifecycle, { port: config.MCP_HTTP_PORT, host: config.HOST, name: 'mcp-http' });
  // {mcp_host}: the deprecated host with the API-key exchange, serving the same endpoint.
  const host = await listen(
    legacyHostApp({ rpc: svc.bus.rpc, endpoint: endpoint.handlers, foreignCallers, baseUrl, logger: svc.logger }),
    svc.lifecycle,
    { port: config.MCP_HOST_PORT, host: config.HOST, name: 'mcp-host' },
  );
  await svc.rpc.start();
  svc.logger.info('mcp started', { url: http.url, mcpHostUrl: host.url });
  return { ...svc, httpUrl: http.url, hostUrl: host.url };
}

/** Waits of svc_get_post_status this process holds at once; past it a caller is answered at once. */
const MAX_POST_WAITS = 1000;

/** A queue name of this process alone. */
const perProcessQueue = (name: string) => `${name}.${process.pid}.${Math.random().toString(36).slice(2, 8)}`;

/** Like the gateway, each replica hears revoked keys and OAuth grants and changed accounts on its own queue and drops the stale verdicts at once. */
async function forgetStaleVerdicts(svc: ServiceRuntime, cache: PrincipalCache): Promise<void> {
  const revocations = svc.bus.consume({
    queue: perProcessQueue('mcp.revocations'),
    perProcess: true,
    retryDelaysMs: [],
    events: STALE_VERDICT_EVENTS,
    handler: async (e) => cache.forget(e),
  });
  await revocations.start();
  svc.lifecycle.onStop('revocations', () => revocations.stop());
}

/** svc_get_post_status with waitSeconds is woken by the events of a final state, heard on a queue of this process. */
async function hearPostOutcomes(svc: ServiceRuntime): Promise<PostWaiters> {
  const outcomes = new PostWaiters(MAX_POST_WAITS);
  const outcomeEvents = outcomes.hearOutcomes(
    svc.bus.consume({ queue: perProcessQueue('mcp.post-outcomes'), perProcess: true, retryDelaysMs: [] }),
  );
  await outcomeEvents.start();
  svc.lifecycle.onStop('post outcomes', () => outcomeEvents.stop());
  return outcomes;
}

/** The MCP endpoint, its icon and discovery documents, and JSON-RPC errors for what fails. */
function mcpApp(
  handlers: express.RequestHandler[],
  foreignCallers: express.RequestHandler,
  baseUrl: string,
  logger: Logger,
): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.route('/api/mcp').all(foreignCallers).post(handlers).get(methodNotAllowed).delete(methodNotAllowed);
  app.get(ICON_PATH, iconHandler);
  const card = serverCardHandler(baseUrl);
  app.get('/api/mcp/server-card', card);
  app.get('/.well-known/mcp/server-card.json', card);
  app.get('/.well-known/mcp.json', card);
  app.get('/.well-known/oauth-protected-resource/api/mcp', protectedResourceHandler(baseUrl));
  app.use(jsonRpcErrors(logger));
  return app;
}

function jsonRpcErrors(logger: Logger): express.ErrorRequestHandler {
  return (err: unknown, _req, res, _next) => {
    // A refusal that carries its status (an HTTP error from a library) is the client's: 4xx, never 500.
    const refusal: HttpErrorFields = typeof err === 'object' && err !== null ? err : {};
    if (
      typeof refusal.status === 'number' &&
      Number.isInteger(refusal.status) &&
      refusal.status >= 400 &&
      refusal.status < 500
    )
      return res.status(refusal.status).json({
        jsonrpc: '2.0',
        error: { code: -32600, message: refusal.expose ? refusal.message : 'Invalid request' },
        id: null,
      });
    logger.error('mcp request failed', { err: err instanceof Error ? (err.stack ?? String(err)) : String(err) });
    if (!res.headersSent)
      res.status(500).json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null });
  };
}

if (require.main === module) runMain(start);
