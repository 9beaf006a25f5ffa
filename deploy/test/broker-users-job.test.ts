import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brokerPermissionsOf, brokerUserOf, BROKER_SERVICES } from '@postbus/bus';
import { renderKustomization } from './support/kustomize';
import { ROOT } from './support/service-config';

const production = renderKustomization(join(ROOT, 'deploy', 'kubernetes', 'overlays', 'production'));
const find = (kind: string, name: string) => production.find((o) => o.kind === kind && o.metadata.name === name)!;
const job = find('Job', 'postbus-broker-users');
const script = (find('ConfigMap', 'postbus-broker-users').data as Record<string, string>)['provision.sh'];
const namespace = (find('ConfigMap', 'postbus-config').data as Record<string, string>).BUS_NAMESPACE;
const ADMIN = 'http://guest:guest@broker.test:15672';

/**
 * The script runs with a stand-in for curl first on PATH, which records each request (method,
 * URL, body) and answers as the management API would (or refuses, with CURL_FAIL set).
 */
const FAKE_CURL = `#!/bin/sh
method=; body=; url=
while [ $# -gt 0 ]; do
  case "$1" in
    -X) method=$2; shift ;;
    --data-binary) body=$2; shift ;;
    -H | --max-time | --retry) shift ;;
    -*) ;;
    *) url=$1 ;;
  esac
  shift
done
printf '%s\\t%s\\t%s\\n' "$method" "$url" "$body" >> "$CURL_LOG"
if [ -n "\${CURL_FAIL:-}" ]; then echo '{"error":"not_authorized"}'; exit 22; fi
`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'postbus-broker-users-'));
  writeFileSync(join(dir, 'provision.sh'), script);
  writeFileSync(join(dir, 'curl'), FAKE_CURL);
  chmodSync(join(dir, 'curl'), 0o755);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const passwordOf = (service: string) => `job-test-${service}`;
const serviceUrls = (): Record<string, string> =>
  Object.fromEntries(
    BROKER_SERVICES.map((s) => [
      `${s.toUpperCase()}_AMQP_URL`,
      `amqps://${brokerUserOf(s)}:${passwordOf(s)}@rabbitmq.test:5671`,
    ]),
  );

interface Run {
  status: number | null;
  stderr: string;
  requests: { method: string; url: string; body: any }[];
}

function runScript(env: Record<string, string>): Run {
  const log = join(dir, `requests-${Math.random().toString(36).slice(2)}.log`);
  const result = spawnSync('sh', [join(dir, 'provision.sh')], {
    env: { PATH: `${dir}:${process.env.PATH}`, CURL_LOG: log, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  const lines = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
  const requests = lines.map((line) => {
    const [method, url, body] = line.split('\t');
    return { method, url, body: JSON.parse(body) };
  });
  return { status: result.status, stderr: result.stderr, requests };
}

test('when the Job is rendered, then it takes the namespace from the settings, the management URL and every service URL whose user it creates from the Secret, and runs unprivileged on a pinned image', () => {
  const pod = job.spec.template.spec;
  const [container] = pod.containers;
  const byName = Object.fromEntries(
    container.env.map((e: { name: string; valueFrom: unknown }) => [e.name, e.valueFrom]),
  );
  const services = (script.match(/for service in ([a-z ]+); do/) ?? [])[1].split(' ');

  expect(services).toEqual([...BROKER_SERVICES]);
  expect(Object.keys(byName).sort()).toEqual(
    ['BUS_NAMESPACE', 'RABBITMQ_MANAGEMENT_URL', ...services.map((s) => `${s.toUpperCase()}_AMQP_URL`)].sort(),
  );
  expect(byName.BUS_NAMESPACE).toEqual({ configMapKeyRef: { name: 'postbus-config', key: 'BUS_NAMESPACE' } });
  for (const [name, from] of Object.entries(byName).filter(([n]) => n !== 'BUS_NAMESPACE'))
    expect([name, from]).toEqual([name, { secretKeyRef: { name: 'postbus-secrets', key: name } }]);
  expect(container.image).toMatch(/^curlimages\/curl:\d+\.\d+\.\d+$/);
  expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
  expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
  expect(container.securityContext).toEqual({
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem: true,
    capabilities: { drop: ['ALL'] },
  });
  expect(container.resources.limits.memory).toBeDefined();
  expect(job.spec.ttlSecondsAfterFinished).toBe(find('Job', 'postbus-database-roles').spec.ttlSecondsAfterFinished);
});

test.each([
  ['the deployed namespace', namespace],
  ['a namespace with dots', 't.pb_job-1'],
])(
  "when the Job's script runs with %s, then each service's user gets its URL's password and exactly the permissions libs/bus gives it",
  (_, ns) => {
    const run = runScript({ BUS_NAMESPACE: ns, RABBITMQ_MANAGEMENT_URL: `${ADMIN}/`, ...serviceUrls() });

    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.requests).toEqual(
      BROKER_SERVICES.flatMap((s) => [
        { method: 'PUT', url: `${ADMIN}/api/users/${brokerUserOf(s)}`, body: { password: passwordOf(s), tags: '' } },
        {
          method: 'PUT',
          url: `${ADMIN}/api/permissions/%2F/${brokerUserOf(s)}`,
          body: { ...brokerPermissionsOf(s, ns) },
        },
      ]),
    );
    expect(namespace).toBe('postbus');
  },
);

test.each([
  [
    'a URL naming another service’s user',
    { POSTS_AMQP_URL: 'amqps://postbus_connections:pw@rabbitmq.test:5671' },
    /POSTS_AMQP_URL must be amqp\(s\):\/\/postbus_posts:/,
  ],
  [
    'a URL naming another virtual host',
    { POSTS_AMQP_URL: 'amqps://postbus_posts:pw@rabbitmq.test:5671/elsewhere' },
    /POSTS_AMQP_URL must be/,
  ],
  [
    'a password that would break out of the JSON',
    { POSTS_AMQP_URL: 'amqps://postbus_posts:a"b@rabbitmq.test:5671' },
    /POSTS_AMQP_URL: the password may hold only/,
  ],
  ['a namespace that is a regular expression', { BUS_NAMESPACE: 'postbus|.*' }, /BUS_NAMESPACE may hold only/],
])(
  "when the Job's script is given %s, then it refuses before asking anything of the broker",
  (_, override, message) => {
    const run = runScript({ BUS_NAMESPACE: namespace, RABBITMQ_MANAGEMENT_URL: ADMIN, ...serviceUrls(), ...override });
    const posts = run.requests.filter((r) => r.url.endsWith(`/${brokerUserOf('posts')}`));

    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(message);
    expect(posts).toEqual([]);
  },
);

test("when the management API refuses the administrator, then the Job's script fails (and the Job retries)", () => {
  const run = runScript({ BUS_NAMESPACE: namespace, RABBITMQ_MANAGEMENT_URL: ADMIN, ...serviceUrls(), CURL_FAIL: '1' });

  expect(run.status).not.toBe(0);
  expect(run.requests).toHaveLength(1);
});
