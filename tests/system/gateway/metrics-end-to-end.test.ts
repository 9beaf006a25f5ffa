import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Rpc } from '@postbus/contracts';
import { createTestEnv, metricSample, waitFor, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

let env: TestEnv;
let system: RunningSystem;
let receiver: Server;
let receiverUrl: string;
let delivered = 0;

beforeAll(async () => {
  env = await createTestEnv('e2e_metrics');
  system = await startSystem(env, { WEBHOOKS_ALLOW_LOOPBACK: 'true' });
  receiver = createServer((req, res) => {
    req.resume().on('end', () => {
      delivered++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await system?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
  await env?.drop();
});

async function api(path: string, key: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${system.baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const scrape = async (service: string) => (await fetch(`${system.metricsUrls[service]}/metrics`)).text();

test('when a post is published and its webhook delivered, then every service answers health probes and its /metrics shows the traffic', async () => {
  const account = await system.seedAccount({ platforms: ['threads'] });
  const hook = await api('/api/v1/webhooks', account.apiKey, { url: receiverUrl, events: ['post.published'] });
  expect(hook.status).toBe(201);
  const created = await api('/api/v1/publish', account.apiKey, {
    platforms: ['threads'],
    caption: `metrics ${Date.now()}`,
  });
  expect(created.status).toBe(201);
  const [postId] = created.body.postIds;
  await waitFor(
    async () => ((await api(`/api/v1/posts/${postId}`, account.apiKey)).body.status === 'posted' ? true : undefined),
    { timeoutMs: 15_000, what: 'the post to be posted' },
  );
  await waitFor(() => (delivered > 0 ? true : undefined), { timeoutMs: 15_000, what: 'the webhook delivery' });

  expect(Object.keys(system.metricsUrls)).toEqual(
    expect.arrayContaining(['auth', 'connections', 'gateway', 'mcp', 'media', 'posts', 'publisher', 'webhooks']),
  );
  for (const [service, url] of Object.entries(system.metricsUrls)) {
    expect([service, (await fetch(`${url}/healthz`)).status]).toEqual([service, 200]);
    const ready = await fetch(`${url}/readyz`);
    expect([service, ready.status]).toEqual([service, 200]);
    expect(metricSample(await scrape(service), 'process_cpu_user_seconds_total', { service })).toBeGreaterThan(0);
  }

  const gateway = await scrape('gateway');
  expect(
    metricSample(gateway, 'postbus_http_request_duration_seconds_count', {
      service: 'gateway',
      method: 'POST',
      route: '/api/v1/publish',
      status: '201',
    }),
  ).toBe(1);
  expect(
    metricSample(gateway, 'postbus_http_request_duration_seconds_count', {
      method: 'GET',
      route: '/api/v1/posts/:id',
      status: '200',
    }),
  ).toBeGreaterThanOrEqual(1);
  expect(
    metricSample(gateway, 'postbus_rpc_client_duration_seconds_count', { rpc: Rpc.postsCreate.name, outcome: 'ok' }),
  ).toBe(1);
  expect(gateway).not.toContain(postId);

  const auth = await scrape('auth');
  expect(
    metricSample(auth, 'postbus_rpc_server_duration_seconds_count', {
      service: 'auth',
      rpc: Rpc.authVerifyKey.name,
      outcome: 'ok',
    }),
  ).toBeGreaterThanOrEqual(1);

  const posts = await scrape('posts');
  expect(
    metricSample(posts, 'postbus_rpc_server_duration_seconds_bucket', {
      rpc: Rpc.postsCreate.name,
      outcome: 'ok',
      le: '+Inf',
    }),
  ).toBe(1);
  expect(metricSample(posts, 'postbus_dispatch_lag_seconds_count', { service: 'posts' })).toBeGreaterThanOrEqual(1);
  expect(metricSample(posts, 'postbus_outbox_backlog', { service: 'posts' })).toBeGreaterThanOrEqual(0);
  expect(
    metricSample(posts, 'postbus_event_handling_duration_seconds_count', {
      queue: 'posts.results',
      event: 'post.published',
      outcome: 'ok',
    }),
  ).toBeGreaterThanOrEqual(1);

  const publisher = await scrape('publisher');
  expect(
    metricSample(publisher, 'postbus_publish_outcomes_total', {
      service: 'publisher',
      platform: 'threads',
      outcome: 'published',
    }),
  ).toBe(1);
  expect(
    metricSample(publisher, 'postbus_publish_duration_seconds_count', { platform: 'threads', outcome: 'published' }),
  ).toBe(1);
  expect(
    metricSample(publisher, 'postbus_event_handling_duration_seconds_count', {
      queue: 'publisher.due',
      event: 'post.due',
    }),
  ).toBeGreaterThanOrEqual(1);
  expect(metricSample(publisher, 'postbus_outbox_backlog', { service: 'publisher' })).toBeGreaterThanOrEqual(0);
  expect(
    metricSample(publisher, 'postbus_event_wait_seconds_count', { queue: 'publisher.due', event: 'post.due' }),
  ).toBeGreaterThanOrEqual(1);

  const webhooks = await scrape('webhooks');
  expect(
    metricSample(webhooks, 'postbus_webhook_deliveries_total', { service: 'webhooks', outcome: 'delivered' }),
  ).toBeGreaterThanOrEqual(1);
  expect(
    metricSample(webhooks, 'postbus_webhook_delivery_duration_seconds_count', { outcome: 'delivered' }),
  ).toBeGreaterThanOrEqual(1);
});
