import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { connect } from 'amqplib';
import { createLogger } from '@postbus/kit';
// libs/bus and the harness are plain modules here; importing them by path avoids a dependency cycle.
import { BusConnection, EventConsumer, EventPublisher, PermanentError } from '../../bus/src';
import { metricSample as sample } from '../../testing/src/prometheus-text';
import { waitFor } from '../../testing/src/wait';
import { httpMetrics, METRIC, ServiceMetrics } from '../src';

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

test('when RPCs, events, lags, publishes and webhook deliveries are observed, then the exposition has them with the service label', async () => {
  const metrics = new ServiceMetrics('posts', { processMetrics: false });
  metrics.rpcServed('posts.create', 'ok', 0.02);
  metrics.rpcServed('posts.create', 'validation_error', 0.001);
  metrics.rpcCalled('auth.verifyKey', 'service_unavailable', 5);
  metrics.dispatched(1.5);
  metrics.published('threads', 'published', 2);
  metrics.published('threads', 'transient_error', 0.3);
  metrics.webhookDelivered('delivered', 0.05);

  const { body, contentType } = await metrics.exposition();

  expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
  expect(
    sample(body, `${METRIC.rpcServerDuration}_count`, { service: 'posts', rpc: 'posts.create', outcome: 'ok' }),
  ).toBe(1);
  expect(sample(body, `${METRIC.rpcServerDuration}_count`, { rpc: 'posts.create', outcome: 'validation_error' })).toBe(
    1,
  );
  expect(sample(body, `${METRIC.rpcClientDuration}_bucket`, { rpc: 'auth.verifyKey', le: '2.5' })).toBe(0);
  expect(sample(body, `${METRIC.rpcClientDuration}_bucket`, { rpc: 'auth.verifyKey', le: '+Inf' })).toBe(1);
  expect(sample(body, `${METRIC.dispatchLag}_sum`, { service: 'posts' })).toBe(1.5);
  expect(sample(body, METRIC.publishOutcomes, { platform: 'threads', outcome: 'published' })).toBe(1);
  expect(sample(body, METRIC.publishOutcomes, { platform: 'threads', outcome: 'transient_error' })).toBe(1);
  expect(sample(body, `${METRIC.publishDuration}_sum`, { platform: 'threads', outcome: 'published' })).toBe(2);
  expect(sample(body, METRIC.webhookDeliveries, { outcome: 'delivered' })).toBe(1);
  expect(body).not.toContain('process_cpu');
});

test('when outboxes and dependencies are tracked, then each scrape asks them, and a failing one reads as empty or down', async () => {
  const metrics = new ServiceMetrics('auth', { processMetrics: false });
  let rows = 3;
  metrics.trackOutbox({ backlog: async () => rows });
  metrics.trackOutbox({ backlog: async () => Promise.reject(new Error('database gone')) });
  metrics.trackDependency('database', async () => rows > 0);
  metrics.trackDependency('broker', async () => Promise.reject(new Error('no broker')));

  const first = (await metrics.exposition()).body;
  rows = 0;
  const second = (await metrics.exposition()).body;

  expect(sample(first, METRIC.outboxBacklog, { service: 'auth' })).toBe(3);
  expect(sample(second, METRIC.outboxBacklog)).toBe(0);
  expect(sample(first, METRIC.dependencyUp, { dependency: 'database' })).toBe(1);
  expect(sample(second, METRIC.dependencyUp, { dependency: 'database' })).toBe(0);
  expect(sample(first, METRIC.dependencyUp, { dependency: 'broker' })).toBe(0);
});

test('when a service has process metrics, then two services in one process keep separate registries', async () => {
  const a = new ServiceMetrics('gateway');
  const b = new ServiceMetrics('media');
  a.rpcCalled('posts.get', 'ok', 0.01);

  const textA = (await a.exposition()).body;
  const textB = (await b.exposition()).body;

  expect(textA).toMatch(/process_cpu_user_seconds_total\{service="gateway"\}/);
  expect(textB).toMatch(/process_cpu_user_seconds_total\{service="media"\}/);
  expect(sample(textA, `${METRIC.rpcClientDuration}_count`, { rpc: 'posts.get' })).toBe(1);
  expect(sample(textB, `${METRIC.rpcClientDuration}_count`, { rpc: 'posts.get' })).toBeUndefined();
});

describe('HTTP latency labels', () => {
  let server: Server;
  let url: string;
  const metrics = new ServiceMetrics('gateway', { processMetrics: false });
  const observe = httpMetrics(metrics, { prefixes: ['/files', '/api/mcp'] });

  beforeAll(async () => {
    server = createServer((req, res) =>
      observe(req, res, () => {
        const path = (req.url ?? '').split('?')[0];
        if (path.startsWith('/api/v1/posts/')) Object.assign(req, { route: { path: '/api/v1/posts/:id' } }); // what express sets on a match
        res.statusCode = path === '/nowhere' ? 404 : 200;
        res.end('ok');
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('when requests hit a route, a proxied prefix and no route, then they are labelled by pattern, never by raw path', async () => {
    for (const path of [
      '/api/v1/posts/pst_1',
      '/api/v1/posts/pst_2?x=1',
      '/files/med_9/a.jpg',
      '/api/mcp',
      '/nowhere',
      '/other',
    ])
      await (await fetch(`${url}${path}`)).text();
    const text = (await metrics.exposition()).body;

    expect(
      sample(text, `${METRIC.httpRequestDuration}_count`, { method: 'GET', route: '/api/v1/posts/:id', status: '200' }),
    ).toBe(2);
    expect(sample(text, `${METRIC.httpRequestDuration}_count`, { route: '/files', status: '200' })).toBe(1);
    expect(sample(text, `${METRIC.httpRequestDuration}_count`, { route: '/api/mcp' })).toBe(1);
    expect(sample(text, `${METRIC.httpRequestDuration}_count`, { route: 'unmatched', status: '404' })).toBe(1);
    expect(sample(text, `${METRIC.httpRequestDuration}_count`, { route: 'other', status: '200' })).toBe(1);
    expect(text).not.toContain('pst_1');
    expect(text).not.toContain('med_9');
  });
});

test('when the bus reports to the metrics, then retries and dead letters of a consumer are counted per queue and event', async () => {
  const metrics = new ServiceMetrics('publisher', { processMetrics: false });
  const namespace = `t.metrics_${randomUUID().slice(0, 8)}`;
  const bus = await BusConnection.open({
    url: AMQP_URL,
    namespace,
    logger: createLogger('metrics-test', 'silent'),
    ephemeral: true,
    observer: metrics,
  });
  const publisher = await EventPublisher.create(bus);
  const consumer = new EventConsumer(bus, {
    queue: 'publisher.due',
    events: ['post.due'],
    retryDelaysMs: [20, 20],
    handler: async (e) => {
      if ((e.data as { kind: string }).kind === 'flaky') throw new Error('platform said 503');
      if ((e.data as { kind: string }).kind === 'refused') throw new PermanentError('caption too long');
    },
  });
  try {
    await consumer.start();
    await publisher.publish([
      { name: 'post.due', data: { kind: 'fine' } },
      { name: 'post.due', data: { kind: 'flaky' } },
      { name: 'post.due', data: { kind: 'refused' } },
    ]);
    const text = await waitFor(
      async () => {
        const body = (await metrics.exposition()).body;
        return sample(body, METRIC.eventDeadLetters, { queue: 'publisher.due' }) === 2 ? body : undefined;
      },
      { what: 'two dead letters counted' },
    );

    expect(sample(text, METRIC.eventRetries, { service: 'publisher', queue: 'publisher.due', event: 'post.due' })).toBe(
      2,
    );
    expect(sample(text, METRIC.eventDeadLetters, { queue: 'publisher.due', event: 'post.due' })).toBe(2);
    expect(sample(text, `${METRIC.eventHandlingDuration}_count`, { queue: 'publisher.due', outcome: 'ok' })).toBe(1);
    expect(sample(text, `${METRIC.eventHandlingDuration}_count`, { queue: 'publisher.due', outcome: 'retry' })).toBe(2);
    expect(sample(text, `${METRIC.eventWait}_count`, { queue: 'publisher.due', event: 'post.due' })).toBe(3); // first attempts only
  } finally {
    await consumer.stop();
    await bus.close();
    const admin = await connect(AMQP_URL);
    const ch = await admin.createChannel();
    for (const q of ['publisher.due', 'publisher.due.dead', 'publisher.due.retry.20'])
      await ch.deleteQueue(`${namespace}.${q}`);
    await ch.deleteExchange(`${namespace}.events`);
    await admin.close();
  }
});
