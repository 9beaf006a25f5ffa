import type { AddressInfo } from 'node:net';
import { runMain } from '@postbus/kit';
import { bootService, httpMetrics, PrincipalCache, STALE_VERDICT_EVENTS } from '@postbus/service';
import { Events } from '@postbus/contracts';
import { readConfig } from './config';
import { createApp } from './http/app';
import { PostWaiters } from './http/post-waiters';
import { proxyTable } from './http/proxy-table';
import { floodGuards } from './http/flood-guards.factory';
import { PgRateLimitStore } from './http/rate-limit';
import { migrations } from './migrations';

export async function start(env?: Record<string, string | undefined>) {
  const config = readConfig(env);
  const svc = await bootService({ name: 'gateway', config, schema: 'gateway', migrations });
  const cache = new PrincipalCache(config.AUTH_CACHE_MS);

  // Each gateway replica hears revocations and account changes (disabled, new plan) on its own queue and drops the stale verdicts at once.
  const revocations = svc.bus.consume({
    queue: `gateway.revocations.${process.pid}.${Math.random().toString(36).slice(2, 8)}`,
    perProcess: true,
    retryDelaysMs: [],
    events: STALE_VERDICT_EVENTS,
    handler: async (e) => cache.forget(e),
  });
  await revocations.start();

  // Waiting callers are woken by the outcome events, heard on a queue of this process.
  const waiters = new PostWaiters(config.LONG_POLL_MAX_WAITERS);
  const outcomes = svc.bus.consume({
    queue: `gateway.post-outcomes.${process.pid}.${Math.random().toString(36).slice(2, 8)}`,
    perProcess: true,
    retryDelaysMs: [],
    events: [Events.postPublished.name, Events.postFailed.name],
    handler: async (e) => waiters.wake(String((e.data as { postId?: unknown })?.postId)),
  });
  await outcomes.start();
  svc.lifecycle.onStop('post outcomes', () => outcomes.stop());
  svc.metrics.gaugeOf('postbus_gateway_post_waiters', 'Callers of this gateway process waiting for a post\'s outcome', () => waiters.count);

  let baseUrl = config.PUBLIC_BASE_URL;
  const counters = new PgRateLimitStore(svc.ds!);
  // Ended windows are swept now and then; the longest bucket is the attempts window.
  const longestWindowMs = Math.max(60_000, config.RATE_LIMIT_ATTEMPTS_WINDOW_SECONDS * 1000);
  const sweep = setInterval(() => counters.forgetEnded(longestWindowMs).catch((err: Error) => svc.logger.warn('rate limit sweep failed', { err: err.message })), 5 * 60_000);
  sweep.unref();
  svc.lifecycle.onStop('rate limit sweep', async () => clearInterval(sweep));
  const app = createApp({ bus: svc.bus, rpc: svc.bus.rpc, cache, logger: svc.logger, bodyLimit: config.BODY_LIMIT, publicBaseUrl: () => baseUrl, proxies: proxyTable(config), guards: floodGuards(counters, config, svc.logger), trustProxyHops: config.TRUST_PROXY_HOPS, upstreamTimeoutMs: config.GATEWAY_UPSTREAM_TIMEOUT_MS, waiters, observeHttp: httpMetrics(svc.metrics, { prefixes: proxyTable(config).map((p) => p.prefix) }) });
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
