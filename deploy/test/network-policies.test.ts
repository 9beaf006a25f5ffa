import { join } from 'node:path';
import { renderKustomization, type K8sObject } from './support/kustomize';
import { mayConnect, podOf, type Endpoint } from './support/network-policy';
import { configVarsOf, deployedServices, ROOT } from './support/service-config';

const K8S = join(ROOT, 'deploy', 'kubernetes');
const production = renderKustomization(join(K8S, 'overlays', 'production'));
const dev = renderKustomization(join(K8S, 'overlays', 'dev'));
const NS = 'postbus';
const config = production.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'postbus-config')!.data as Record<
  string,
  string
>;

const pod = (name: string, objects: K8sObject[] = production) => podOf(objects, 'Deployment', name);
const inNamespace = (namespace: string, labels: Record<string, string> = { app: 'anything' }): Endpoint => ({
  namespace,
  labels,
});
const ingressController = inNamespace('ingress-nginx', { 'app.kubernetes.io/name': 'ingress-nginx' });
const prometheus = inNamespace('monitoring', { 'app.kubernetes.io/name': 'prometheus' });
const METRICS = Number(config.METRICS_PORT);
const PUBLIC = { ip: '93.184.216.34' };

test('when the manifests are rendered, then every Postbus workload starts from "nothing in, nothing out"', () => {
  const deny = production.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'postbus-default-deny')!;
  const workloads = production.filter((o) => ['Deployment', 'Job'].includes(o.kind));

  expect(deny.spec.policyTypes).toEqual(['Ingress', 'Egress']);
  expect(deny.spec.ingress ?? []).toEqual([]);
  expect(deny.spec.egress ?? []).toEqual([]);
  expect(workloads.length).toBeGreaterThan(deployedServices().length);
  for (const w of workloads)
    expect([
      w.metadata.name,
      deny.spec.podSelector.matchLabels['app.kubernetes.io/part-of'] ===
        w.spec.template.metadata.labels['app.kubernetes.io/part-of'],
    ]).toEqual([w.metadata.name, true]);
});

test('when the ingress controller forwards a request, then it reaches the gateway and mcp, and no other service', () => {
  expect(mayConnect(production, ingressController, pod('gateway'), Number(config.PORT))).toBe(true);
  expect(mayConnect(production, ingressController, pod('mcp'), Number(config.MCP_HTTP_PORT))).toBe(true);
  expect(mayConnect(production, ingressController, pod('mcp'), Number(config.MCP_HOST_PORT))).toBe(true);
  for (const service of ['auth', 'connections', 'posts', 'media', 'automation']) {
    expect([
      service,
      mayConnect(production, ingressController, pod(service), Number(config[`${service.toUpperCase()}_HTTP_PORT`])),
    ]).toEqual([service, false]);
  }
  expect(mayConnect(production, inNamespace('someone-else'), pod('gateway'), Number(config.PORT))).toBe(false);
});

test('when the gateway streams to a service, then it reaches that service on the port its URL names, and nothing else does', async () => {
  const urls = [...(await configVarsOf('gateway'))].filter((v) => v.endsWith('_HTTP_URL'));
  expect(urls.length).toBeGreaterThan(4);
  for (const v of urls) {
    const url = new URL(config[v]);
    expect([v, mayConnect(production, pod('gateway'), pod(url.hostname), Number(url.port))]).toEqual([v, true]);
    expect([v, mayConnect(production, pod('publisher'), pod(url.hostname), Number(url.port))]).toEqual([v, false]);
  }
  expect(mayConnect(production, pod('posts'), pod('auth'), Number(config.AUTH_HTTP_PORT))).toBe(false);
});

test.each(deployedServices())(
  'when %s runs, then it reaches DNS, PostgreSQL and RabbitMQ, and Prometheus (only) reaches its metrics',
  (service) => {
    const dns = inNamespace('kube-system', { 'k8s-app': 'kube-dns' });
    const database = { ip: '10.20.30.40' };

    expect(mayConnect(production, pod(service), dns, 53)).toBe(true);
    expect(mayConnect(production, pod(service), database, 5432)).toBe(true);
    expect(mayConnect(production, pod(service), database, 5671)).toBe(true);
    expect(mayConnect(production, pod(service), database, 5672)).toBe(true);
    expect(mayConnect(production, prometheus, pod(service), METRICS)).toBe(true);
    expect(mayConnect(production, inNamespace('someone-else'), pod(service), METRICS)).toBe(false);
    expect(mayConnect(production, pod(service), { ip: '10.20.30.40' }, 22)).toBe(false);
  },
);

test('when a service calls out, then only those that talk to platforms, S3, client metadata or subscribers reach the internet, and never an internal address', () => {
  for (const service of ['auth', 'automation', 'connections', 'media', 'publisher', 'webhooks']) {
    expect([service, mayConnect(production, pod(service), PUBLIC, 443)]).toEqual([service, true]);
    expect([service, mayConnect(production, pod(service), { ip: '169.254.169.254' }, 80)]).toEqual([service, false]);
    expect([service, mayConnect(production, pod(service), { ip: '10.0.0.7' }, 443)]).toEqual([service, false]);
  }
  for (const service of ['gateway', 'mcp', 'posts'])
    expect([service, mayConnect(production, pod(service), PUBLIC, 443)]).toEqual([service, false]);
  expect(mayConnect(production, pod('webhooks'), PUBLIC, 8443)).toBe(true);
  expect(mayConnect(production, pod('publisher'), PUBLIC, 8443)).toBe(false);
});

test('when the dev overlay runs against the in-cluster sandbox, then the services that call platforms reach it', () => {
  const sandbox = podOf(dev, 'Deployment', 'sandbox');
  for (const service of ['connections', 'publisher', 'automation'])
    expect([service, mayConnect(dev, pod(service, dev), sandbox, 4010)]).toEqual([service, true]);
  expect(mayConnect(dev, pod('posts', dev), sandbox, 4010)).toBe(false);
});

test('when the broker-users Job runs, then it reaches the management API on 15672 besides what every Postbus pod reaches, and nothing else new; no service reaches 15672', () => {
  const jobPod = podOf(production, 'Job', 'postbus-broker-users');
  const anyPod: Endpoint = {
    labels: { 'app.kubernetes.io/name': 'no-policy-of-its-own', 'app.kubernetes.io/part-of': 'postbus' },
    namespace: NS,
  };
  const broker = { ip: '10.20.30.40' };
  const peers: Endpoint[] = [
    broker,
    inNamespace('rabbitmq', { 'app.kubernetes.io/name': 'rabbitmq' }),
    PUBLIC,
    { ip: '169.254.169.254' },
    inNamespace('kube-system', { 'k8s-app': 'kube-dns' }),
    pod('gateway'),
    pod('auth'),
  ];
  const ports = [22, 53, 80, 443, 3000, 3001, 4369, 5432, 5671, 5672, 8443, 9464, 15671, 15672, 15692, 25672];

  expect(mayConnect(production, jobPod, broker, 15672)).toBe(true);
  for (const peer of peers) {
    for (const port of ports) {
      // The broker may live anywhere (matched by port, like 5672): on 15672 the Job reaches whatever every pod reaches on 5672.
      const expected =
        mayConnect(production, anyPod, peer, port) || (port === 15672 && mayConnect(production, anyPod, peer, 5672));
      expect([peer, port, mayConnect(production, jobPod, peer, port)]).toEqual([peer, port, expected]);
    }
  }
  for (const service of deployedServices())
    expect([service, mayConnect(production, pod(service), broker, 15672)]).toEqual([service, false]);
  expect(mayConnect(production, podOf(production, 'Job', 'postbus-database-roles'), broker, 15672)).toBe(false);
});
