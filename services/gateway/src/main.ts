import type { AddressInfo } from 'node:net';
import { PeriodicLoop, runMain } from '@postbus/kit';
import { bootService, httpMetrics, PostWaiters, PrincipalCache } from '@postbus/service';
import { Events } from '@postbus/contracts';
import { readConfig } from './config';
import { createApp } from './entry-points/http/app';
import { FinalPosts } from './entry-points/http/final-posts';
import { proxyTable } from './entry-points/http/proxy-table';
import { floodGuards } from './entry-points/http/flood-guards.factory';
import { PgRateLimitStore } from './entry-points/http/rate-limit.repository';
import { migrations } from './migrations';

export async function start(env?: Record<string, string | undefined>) {
  const config = readConfig(env);
  const svc = await bootService({ name: 'gateway', config, schema: 'gateway', migrations });
  const cache = new PrincipalCache(config.AUTH_CACHE_MS);

  // Each gateway replica hears revocations and account changes (disabled, new plan) on its own queue and drops the stale verdicts at once.
  const revocations = cache.hearStaleVerdicts(
    svc.bus.consume({
      queue: `gateway.revocations.${process.pid}.${Math.random().toString(36).slice(2, 8)}`,
      perProcess: true,
      retryDelaysMs: [],
    }),
  );
  await revocations.start();

  // Waiting callers are woken by the events of a final state (published, failed, cancelled or rejected), heard on a queue of this process.
  const waiters = new PostWaiters(config.LONG_POLL_MAX_WAITERS);
  // A settled post changes again only when its first comment or chain settles anew: its kept answer is dropped.
  const finals = new FinalPosts(config.GATEWAY_FINAL_POSTS_CACHE_BYTES);
  const outcomes = waiters
    .hearOutcomes(
      svc.bus.consume({
        queue: `gateway.post-outcomes.${process.pid}.${Math.random().toString(36).slice(2, 8)}`,
        perProcess: true,
        retryDelaysMs: [],
      }),
    )
    .on(Events.postFirstComment, ({ data }) =>
      finals.forgetFirstComment(data.accountId, data.postId, data.firstComment),
    )
    .on(Events.postThread, ({ data }) => finals.forgetThread(data.accountId, data.postId, data.thread));
  await outcomes.start();
  svc.lifecycle.onStop('post outcomes', () => outcomes.stop());
  svc.metrics.gaugeOf(
    'postbus_gateway_post_waiters',
    "Callers of this gateway process waiting for a post's outcome",
    () => waiters.count,
  );

  let baseUrl = config.PUBLIC_BASE_URL;
  const counters = new PgRateLimitStore(svc.ds!);
  // Ended windows are swept now and then; the longest bucket is the attempts window.
  const longestWindowMs = Math.max(60_000, config.RATE_LIMIT_ATTEMPTS_WINDOW_SECONDS * 1000);
  const sweep = new PeriodicLoop(() => counters.forgetEnded(longestWindowMs), {
    everyMs: 5 * 60_000,
    unref: true,
    onError: (err) => svc.logger.warn('rate limit sweep failed', { err: err.message }),
  }).start();
  svc.lifecycle.onStop('rate limit sweep', () => sweep.stop());
  const app = createApp({
    bus: svc.bus,
    rpc: svc.bus.rpc,
    cache,
    logger: svc.logger,
    bodyLimit: config.BODY_LIMIT,
    publicBaseUrl: () => baseUrl,
    proxies: proxyTable(config),
    guards: floodGuards(counters, config, svc.logger),
    trustProxyHops: config.TRUST_PROXY_HOPS,
    upstreamTimeoutMs: config.GATEWAY_UPSTREAM_TIMEOUT_MS,
    waiters,
    finals,
    observeHttp: httpMetrics(svc.metrics, { prefixes: proxyTable(config).map((p) => p.prefix) }),
  });
  const server = app.listen(config.PORT, config.HOST);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const port = (server.address() as AddressInfo).port;
  baseUrl ||= `http://localhost:${port}`;
  svc.lifecycle.onStop('revocations', () => revocations.stop());
  svc.lifecycle.onStop(
    'http',
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  );
  svc.logger.info('gateway listening', { baseUrl });
  return { ...svc, port, baseUrl, server };
}

if (require.main === module) runMain(start);
