import { healthRpc } from '@postbus/contracts';
import { loadConfig } from '@postbus/kit';
// The harness lives in libs/testing, which depends on this package; its plain modules are imported by path.
import { metricSample } from '../../testing/src/prometheus-text';
import { createTestEnv, type TestEnv } from '../../testing/src/test-env';
import { bootService, DEFAULT_METRICS_PORTS, serviceVars, type ServiceRuntime } from '../src';

let env: TestEnv;
const started: ServiceRuntime[] = [];

beforeAll(async () => {
  env = await createTestEnv('ops_listener');
});
afterAll(async () => {
  for (const svc of started) await svc.lifecycle.stop();
  await env?.drop();
});

async function boot(name: string, extra: Record<string, string> = {}): Promise<ServiceRuntime> {
  const svc = await bootService({
    name,
    config: loadConfig(serviceVars, { ...env.env, ...extra }),
    schema: name,
    migrations: [],
  });
  started.push(svc);
  await svc.rpc.start();
  svc.lifecycle.markStarted(); // what runMain does once start() resolved
  return svc;
}

async function get(url: string): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

test('when a service boots, then its operations listener answers liveness, readiness with database and broker, and Prometheus metrics', async () => {
  const svc = await boot('opsone');
  await svc.bus.rpc.call(healthRpc('opsone'), {}, null);

  const live = await get(`${svc.metricsUrl}/healthz`);
  const ready = await get(`${svc.metricsUrl}/readyz`);
  const metrics = await get(`${svc.metricsUrl}/metrics`);
  const missing = await get(`${svc.metricsUrl}/metrics/../admin`);

  expect(live).toMatchObject({ status: 200 });
  expect(JSON.parse(ready.text)).toEqual({ status: 'ok', checks: { broker: 'ok', database: 'ok' } });
  expect(ready.status).toBe(200);
  expect(metrics.status).toBe(200);
  expect(metrics.type).toMatch(/^text\/plain/);
  expect(
    metricSample(metrics.text, 'postbus_rpc_server_duration_seconds_count', {
      service: 'opsone',
      rpc: 'opsone.health',
      outcome: 'ok',
    }),
  ).toBe(1);
  expect(
    metricSample(metrics.text, 'postbus_rpc_client_duration_seconds_count', {
      service: 'opsone',
      rpc: 'opsone.health',
      outcome: 'ok',
    }),
  ).toBe(1);
  expect(metricSample(metrics.text, 'postbus_dependency_up', { service: 'opsone', dependency: 'database' })).toBe(1);
  expect(metricSample(metrics.text, 'process_resident_memory_bytes', { service: 'opsone' })).toBeGreaterThan(0);
  expect(missing.status).toBe(404);
  expect(JSON.parse(missing.text).code).toBe('not_found');
});

test('when the broker connection is gone, then readiness answers 503 naming the broker while liveness stays 200', async () => {
  const svc = await boot('opstwo');
  await svc.bus.connection.close();

  const ready = await get(`${svc.metricsUrl}/readyz`);
  const live = await get(`${svc.metricsUrl}/healthz`);

  expect(ready.status).toBe(503);
  expect(JSON.parse(ready.text)).toEqual({ status: 'unavailable', checks: { broker: 'down', database: 'ok' } });
  expect(live.status).toBe(200);
});

test('when the service starts draining, then readiness answers 503 at once, before its work has stopped', async () => {
  const svc = await boot('opsthree');
  let finishDrain!: () => void;
  svc.lifecycle.onStop('slow consumer', () => new Promise<void>((resolve) => (finishDrain = resolve)));

  const stopping = svc.lifecycle.stop();
  const ready = await get(`${svc.metricsUrl}/readyz`);
  finishDrain();
  await stopping;

  expect(ready.status).toBe(503);
  expect(JSON.parse(ready.text).status).toBe('draining');
  await expect(fetch(`${svc.metricsUrl}/healthz`)).rejects.toThrow();
});

test('when the metrics port is taken, then the second process refuses to boot and says which variable to change', async () => {
  const first = await boot('opsfour');
  const port = new URL(first.metricsUrl).port;

  await expect(boot('opsfour', { METRICS_PORT: port })).rejects.toThrow(`METRICS_PORT ${port} is in use`);
  expect(DEFAULT_METRICS_PORTS.publisher).toBe(9406);
  expect(() => loadConfig(serviceVars, { METRICS_PORT: '70000' })).toThrow(
    /METRICS_PORT="70000": expected a port number/,
  );
});

test('when the service has booted but its start() has not finished, then readiness answers 503 starting, so no traffic reaches listeners not yet open', async () => {
  const svc = await bootService({
    name: 'opsfive',
    config: loadConfig(serviceVars, env.env),
    schema: 'opsfive',
    migrations: [],
  });
  started.push(svc);

  const before = await get(`${svc.metricsUrl}/readyz`);
  svc.lifecycle.markStarted();
  const after = await get(`${svc.metricsUrl}/readyz`);

  expect(before.status).toBe(503);
  expect(JSON.parse(before.text).status).toBe('starting');
  expect(after.status).toBe(200);
});
