import type { AddressInfo } from 'node:net';
import { Events } from '@postbus/contracts';
import { runMain } from '@postbus/kit';
import { bootService, httpMetrics, PrincipalCache } from '@postbus/service';
import { readConfig } from './config';
import { createApp } from './http/app';
import { proxyTable } from './http/proxy-table';
import { PgRateLimitStore, rateLimit } from './http/rate-limit';
import { LeasingRateLimitStore } from './http/rate-limit-leases';
import { migrations } from './migrations';

export async function start(env?: Record<string, string | undefined>) {
  const config = readConfig(env);
  const svc = await bootService({ name: 'gateway', config, schema: 'gateway', migrations });
  const cache = new PrincipalCache(config.AUTH_CACHE_MS);

  // Each gateway replica hears revocations on its own queue and drops the cached key at once.
  const revocations = svc.bus.consume({
    queue: `gateway.revocations.${process.pid}.${Math.random().toString(36).slice(2, 8)}`,
    perProcess: true,
    retryDelaysMs: [],
    events: [Events.authKeyRevoked.name],
    handler: async (e) => cache.evictKey((e.data as { keyId: string }).keyId),
  });
  await revocations.start();

  let baseUrl = config.PUBLIC_BASE_URL;
  const app = createApp({ bus: svc.bus, rpc: svc.bus.rpc, cache, logger: svc.logger, bodyLimit: config.BODY_LIMIT, publicBaseUrl: () => baseUrl, proxies: proxyTable(config), rateLimit: rateLimit(new LeasingRateLimitStore(new PgRateLimitStore(svc.ds!), config.RATE_LIMIT_PER_MINUTE), { limit: config.RATE_LIMIT_PER_MINUTE, logger: svc.logger }), observeHttp: httpMetrics(svc.metrics, { prefixes: proxyTable(config).map((p) => p.prefix) }) });
  const server = app.listen(config.PORT, config.HOST);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const port = (server.address() as AddressInfo).port;
  baseUrl ||= `http://localhost:${port}`;
  svc.lifecycle.onStop('revocations', () => revocations.stop());
  svc.lifecycle.onStop('http', () => new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  }));
  svc.logger.info('gateway listening', { baseUrl });
  return { ...svc, port, baseUrl, server };
}

if (require.main === module) runMain(start);
