import express from 'express';
import { runMain } from '@postbus/kit';
import { bootService, listen, PrincipalCache, STALE_VERDICT_EVENTS } from '@postbus/service';
import { readConfig } from './config';
import { refuseForeignCallers } from './http/caller-origin.guard';
import { buildCallerOriginPolicy } from './http/caller-origin.policy';
import { protectedResourceHandler, serverCardHandler } from './http/discovery';
import { legacyHostApp } from './http/legacy-host';
import { mcpEndpoint, methodNotAllowed } from './http/mcp-endpoint';
import { buildToolRegistry } from './tools/tool-registry';

export async function start(env?: Record<string, string | undefined>) {
  const config = readConfig(env);
  const svc = await bootService({ name: 'mcp', config });
  const baseUrl = config.PUBLIC_BASE_URL.replace(/\/$/, '');
  const cache = new PrincipalCache(config.AUTH_CACHE_MS);
  // Like the gateway, each replica hears revoked keys and OAuth grants and changed accounts on its own queue and drops the stale verdicts at once.
  const revocations = svc.bus.consume({
    queue: `mcp.revocations.${process.pid}.${Math.random().toString(36).slice(2, 8)}`,
    perProcess: true,
    retryDelaysMs: [],
    events: STALE_VERDICT_EVENTS,
    handler: async (e) => cache.forget(e),
  });
  await revocations.start();
  svc.lifecycle.onStop('revocations', () => revocations.stop());

  const app = express();
  app.disable('x-powered-by');
  // No body parser for the whole app: the endpoint reads its own body, bounded, once the caller is known.
  const endpoint = mcpEndpoint({ rpc: svc.bus.rpc, cache, tools: buildToolRegistry(), logger: svc.logger, baseUrl, requireAuthForAll: config.MCP_REQUIRE_AUTH_FOR_ALL });
  const foreignCallers = refuseForeignCallers(
    buildCallerOriginPolicy({ publicBaseUrl: baseUrl, extraHosts: config.MCP_ALLOWED_HOSTS, extraOrigins: config.MCP_ALLOWED_ORIGINS, production: config.POSTBUS_ENV === 'production' }),
  );
  app.route('/api/mcp').all(foreignCallers).post(endpoint).get(methodNotAllowed).delete(methodNotAllowed);
  const card = serverCardHandler(baseUrl);
  app.get('/api/mcp/server-card', card);
  app.get('/.well-known/mcp/server-card.json', card);
  app.get('/.well-known/mcp.json', card);
  app.get('/.well-known/oauth-protected-resource/api/mcp', protectedResourceHandler(baseUrl));
  app.use(((err, _req, res, _next) => {
    // A refusal that carries its status (an HTTP error from a library) is the client's: 4xx, never 500.
    if (Number.isInteger(err?.status) && err.status >= 400 && err.status < 500) return res.status(err.status).json({ jsonrpc: '2.0', error: { code: -32600, message: err.expose ? err.message : 'Invalid request' }, id: null });
    svc.logger.error('mcp request failed', { err: err?.stack ?? String(err) });
    if (!res.headersSent) res.status(500).json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null });
  }) as express.ErrorRequestHandler);

  const http = await listen(app, svc.lifecycle, { port: config.MCP_HTTP_PORT, host: config.HOST, name: 'mcp-http' });
  // {mcp_host}: the deprecated host with the API-key exchange, serving the same endpoint.
  const host = await listen(legacyHostApp({ rpc: svc.bus.rpc, endpoint, foreignCallers, baseUrl, logger: svc.logger }), svc.lifecycle, { port: config.MCP_HOST_PORT, host: config.HOST, name: 'mcp-host' });
  await svc.rpc.start();
  svc.logger.info('mcp started', { url: http.url, mcpHostUrl: host.url });
  return { ...svc, httpUrl: http.url, hostUrl: host.url };
}

if (require.main === module) runMain(start);
