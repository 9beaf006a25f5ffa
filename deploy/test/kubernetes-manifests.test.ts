import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DUE_QUEUE } from '../../services/publisher/src/entry-points/consumers';
import { renderKustomization, strategicMerge, type K8sObject } from './support/kustomize';
import { configVarsOf, deployedServices, ROOT } from './support/service-config';
import { schemaErrors } from './support/validate';

const K8S = join(ROOT, 'deploy', 'kubernetes');
const render = (dir: string) => renderKustomization(join(K8S, dir));
const production = render('overlays/production');
const dev = render('overlays/dev');

const find = (objects: K8sObject[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name);
const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);
const secretKeys = readFileSync(join(K8S, 'overlays', 'production', 'secrets.example.env'), 'utf8')
  .split('\n')
  .filter((l) => /^[A-Z0-9_]+=/.test(l))
  .map((l) => l.split('=')[0]);

test('when the base and every overlay are rendered, then every object is valid against the Kubernetes, KEDA and Prometheus Operator schemas', () => {
  const objects = [...render('base'), ...production, ...dev];
  const errors = schemaErrors(objects).filter((r) => r.error);

  expect(objects.length).toBeGreaterThan(60);
  expect(errors).toEqual([]);
  expect(
    schemaErrors([
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'broken' }, spec: { replicas: 'two' } },
    ])[0].error,
  ).toMatch(/replicas must be integer/);
});

describe.each([
  ['production', production],
  ['dev', dev],
])('the %s overlay', (overlay, objects) => {
  const config = find(objects, 'ConfigMap', 'postbus-config')!.data as Record<string, string>;

  test.each(deployedServices())(
    'when %s is deployed, then it has a Deployment, a Service and a PodDisruptionBudget selecting its pods, and probes on its operations port',
    (service) => {
      const deployment = find(objects, 'Deployment', service)!;
      const svc = find(objects, 'Service', service)!;
      const pdb = find(objects, 'PodDisruptionBudget', service)!;
      const pod = deployment.spec.template;
      const [container] = pod.spec.containers;
      const metricsPort = container.ports.find((p: { name: string }) => p.name === 'metrics');

      expect(matches(deployment.spec.selector.matchLabels, pod.metadata.labels)).toBe(true);
      expect(matches(svc.spec.selector, pod.metadata.labels)).toBe(true);
      expect(matches(pdb.spec.selector.matchLabels, pod.metadata.labels)).toBe(true);
      expect(metricsPort.containerPort).toBe(Number(config.METRICS_PORT));
      expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'metrics' });
      expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'metrics' });
      expect(container.startupProbe.httpGet).toEqual({ path: '/healthz', port: 'metrics' });
      for (const port of svc.spec.ports)
        expect(container.ports.map((p: { name: string }) => p.name)).toContain(port.targetPort);
      expect(deployment.metadata.namespace).toBe(overlay === 'production' ? 'postbus' : 'postbus-dev');
    },
  );

  test.each(deployedServices())(
    'when %s runs, then it runs as a non-root user on a read-only filesystem without privileges, with requests and a memory limit',
    (service) => {
      const pod = find(objects, 'Deployment', service)!.spec.template.spec;
      const [container] = pod.containers;

      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(container.securityContext).toEqual({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      });
      expect(container.resources.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
      expect(container.resources.limits.memory).toBeDefined();
      expect(container.volumeMounts).toContainEqual({ name: 'tmp', mountPath: '/tmp' });
    },
  );

  test.each(deployedServices())(
    'when %s receives its environment, then it reads every variable it is given and its secrets come from known keys',
    async (service) => {
      const vars = await configVarsOf(service);
      const [container] = find(objects, 'Deployment', service)!.spec.template.spec.containers;
      const env: { name: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[] = container.env;

      for (const e of env) expect([service, e.name, vars.has(e.name)]).toEqual([service, e.name, true]);
      for (const e of env.filter((x) => x.valueFrom?.secretKeyRef)) {
        expect(e.valueFrom!.secretKeyRef!.name).toBe('postbus-secrets');
        expect(secretKeys).toContain(e.valueFrom!.secretKeyRef!.key);
      }
      expect(container.envFrom).toEqual([{ configMapRef: { name: 'postbus-config' } }]);
    },
  );

  test.each(deployedServices())(
    "when %s connects to the broker, then it logs in with its own URL (its own user), and no workload is given the shared or the administrator's broker URL",
    (service) => {
      const [container] = find(objects, 'Deployment', service)!.spec.template.spec.containers;
      const amqp = container.env.filter((e: { name: string }) => e.name === 'AMQP_URL');
      const keysOf = (o: K8sObject) =>
        o.spec.template.spec.containers.flatMap((c: { env?: { valueFrom?: { secretKeyRef?: { key: string } } }[] }) =>
          (c.env ?? []).map((e) => e.valueFrom?.secretKeyRef?.key),
        );
      const readers = (key: string) =>
        objects
          .filter((o) => ['Deployment', 'Job'].includes(o.kind) && keysOf(o).includes(key))
          .map((o) => o.metadata.name);

      expect(amqp).toEqual([
        {
          name: 'AMQP_URL',
          valueFrom: { secretKeyRef: { name: 'postbus-secrets', key: `${service.toUpperCase()}_AMQP_URL` } },
        },
      ]);
      expect(readers(`${service.toUpperCase()}_AMQP_URL`)).toEqual(
        expect.arrayContaining([service, 'postbus-broker-users']),
      );
      expect(
        readers(`${service.toUpperCase()}_AMQP_URL`).filter((n) => n !== service && n !== 'postbus-broker-users'),
      ).toEqual([]);
      expect(readers('AMQP_URL')).toEqual([]);
      expect(readers('RABBITMQ_MANAGEMENT_URL')).toEqual(['postbus-broker-users']);
      expect(secretKeys).not.toContain('AMQP_URL');
    },
  );

  test('when the shared settings are rendered, then each of them is read by at least one service', async () => {
    const known = new Set((await Promise.all(deployedServices().map(configVarsOf))).flatMap((vars) => [...vars]));
    expect(Object.keys(config).filter((k) => !known.has(k))).toEqual([]);
  });

  test('when the gateway streams to other services, then each URL it is given names a Service and the port that service listens on', async () => {
    const urlVars = [...(await configVarsOf('gateway'))].filter((v) => v.endsWith('_HTTP_URL'));
    for (const urlVar of urlVars) {
      const url = new URL(config[urlVar]);
      const svc = find(objects, 'Service', url.hostname);
      expect([urlVar, url.hostname]).toEqual([urlVar, urlVar.split('_')[0].toLowerCase()]);
      expect([urlVar, svc?.spec.ports.some((p: { port: number }) => p.port === Number(url.port))]).toEqual([
        urlVar,
        true,
      ]);
      expect([urlVar, config[urlVar.replace(/_URL$/, '_PORT')]]).toEqual([urlVar, url.port]);
    }
  });

  test('when the Ingress is rendered, then the base URL reaches the gateway, /api/mcp and the mcp host reach mcp, and every backend is a port of a Service', () => {
    const ingress = find(objects, 'Ingress', 'postbus')!;
    const [base, mcpHost] = ingress.spec.rules;
    const backend = (rule: any, path: string) =>
      rule.http.paths.find((p: { path: string }) => p.path === path).backend.service;

    expect(backend(base, '/')).toEqual({ name: 'gateway', port: { name: 'http' } });
    expect(backend(base, '/api/mcp')).toEqual({ name: 'mcp', port: { name: 'http' } });
    expect(backend(mcpHost, '/')).toEqual({ name: 'mcp', port: { name: 'mcp-host' } });
    expect(config.MCP_HOST_PORT).toBe('3006');
    for (const rule of ingress.spec.rules) {
      for (const { backend: b } of rule.http.paths) {
        const svc = find(objects, 'Service', b.service.name)!;
        expect(svc.spec.ports.map((p: { name: string }) => p.name)).toContain(b.service.port.name);
      }
    }
    expect(config.PUBLIC_BASE_URL).toBe(`${overlay === 'production' ? 'https' : 'http'}://${base.host}`);
  });
});

test('when production is rendered, then images are pinned to a registry and a tag, and no Secret is in the repository', () => {
  for (const d of production.filter((o) => o.kind === 'Deployment')) {
    expect(d.spec.template.spec.containers[0].image).toMatch(
      new RegExp(`^registry\\.example\\.com/postbus/${d.metadata.name}:\\d+\\.\\d+\\.\\d+$`),
    );
  }
  expect(production.filter((o) => o.kind === 'Secret')).toEqual([]);
  expect(find(production, 'ConfigMap', 'postbus-config')!.data.POSTBUS_ENV).toBe('production');
});

test('when the publisher is scaled in production, then KEDA follows the depth of the queue the publisher consumes, with CPU as a second signal, and no HPA competes with it', () => {
  const config = find(production, 'ConfigMap', 'postbus-config')!.data;
  const scaled = find(production, 'ScaledObject', 'publisher')!;
  const auth = find(production, 'TriggerAuthentication', scaled.spec.triggers[0].authenticationRef.name)!;
  const rabbit = scaled.spec.triggers.find((t: { type: string }) => t.type === 'rabbitmq');
  const cpu = scaled.spec.triggers.find((t: { type: string }) => t.type === 'cpu');

  expect(scaled.spec.scaleTargetRef.name).toBe('publisher');
  expect(find(production, 'Deployment', scaled.spec.scaleTargetRef.name)).toBeDefined();
  expect(rabbit.metadata).toMatchObject({
    queueName: `${config.BUS_NAMESPACE}.${DUE_QUEUE}`,
    mode: 'QueueLength',
    protocol: 'amqp',
  });
  expect(Number(rabbit.metadata.value)).toBe(2 * Number(config.PUBLISHER_CONCURRENCY));
  expect(cpu).toMatchObject({ metricType: 'Utilization' });
  expect(auth.spec.secretTargetRef).toEqual([
    { parameter: 'host', name: 'postbus-secrets', key: 'PUBLISHER_AMQP_URL' },
  ]);
  expect(scaled.spec.minReplicaCount).toBeGreaterThanOrEqual(2);
  expect(production.filter((o) => o.kind === 'HorizontalPodAutoscaler')).toEqual([]);
  expect(find(production, 'PodMonitor', 'postbus')!.spec.podMetricsEndpoints[0]).toMatchObject({
    port: 'metrics',
    path: '/metrics',
  });
});

test('when a cluster has no KEDA (the dev overlay), then a CPU HorizontalPodAutoscaler scales the publisher instead and the sandbox stands in for the platforms', () => {
  const hpa = find(dev, 'HorizontalPodAutoscaler', 'publisher')!;
  const config = find(dev, 'ConfigMap', 'postbus-config')!.data;
  const secret = find(dev, 'Secret', 'postbus-secrets')!;

  expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'publisher' });
  expect(hpa.spec.metrics[0].resource).toMatchObject({ name: 'cpu', target: { type: 'Utilization' } });
  expect(dev.filter((o) => o.kind === 'ScaledObject')).toEqual([]);
  expect(config.SANDBOX_URL).toBe('http://sandbox:4010');
  expect(find(dev, 'Service', 'sandbox')!.spec.ports[0].port).toBe(4010);
  expect(Object.keys(secret.data).sort()).toEqual(
    secretKeys
      .filter(
        (k) =>
          ![
            'TOKEN_PREVIOUS_KEYS',
            'WEBHOOK_SECRET_PREVIOUS_KEYS',
            'MEDIA_S3_ACCESS_KEY_ID',
            'MEDIA_S3_SECRET_ACCESS_KEY',
          ].includes(k),
      )
      .sort(),
  );
});

describe('the kustomize subset renderer', () => {
  test('when a patch merges named lists, then items merge by name, others are replaced, and null deletes', () => {
    const target = {
      spec: {
        containers: [{ name: 'a', image: 'x', env: [{ name: 'A', value: '1' }] }],
        tls: [{ hosts: ['a'] }],
        keep: 1,
        drop: 2,
      },
    };
    const patch = {
      spec: {
        containers: [
          { name: 'a', env: [{ name: 'B', value: '2' }] },
          { name: 'b', image: 'y' },
        ],
        tls: [],
        drop: null,
      },
    };

    expect(strategicMerge(target, patch)).toEqual({
      spec: {
        containers: [
          {
            name: 'a',
            image: 'x',
            env: [
              { name: 'A', value: '1' },
              { name: 'B', value: '2' },
            ],
          },
          { name: 'b', image: 'y' },
        ],
        tls: [],
        keep: 1,
      },
    });
  });

  test('when a kustomization uses a field outside the subset, then rendering fails instead of ignoring it', () => {
    expect(() => renderKustomization(join(__dirname, 'fixtures', 'unsupported-field'))).toThrow(
      /commonLabels is outside the kustomize subset/,
    );
  });
});
