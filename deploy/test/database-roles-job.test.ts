import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import { renderKustomization } from './support/kustomize';
import { ROOT } from './support/service-config';

const production = renderKustomization(join(ROOT, 'deploy', 'kubernetes', 'overlays', 'production'));
const job = production.find((o) => o.kind === 'Job' && o.metadata.name === 'postbus-database-roles')!;
const scripts = production.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'postbus-database-roles')!
  .data as Record<string, string>;
const hasPsql = spawnSync('psql', ['--version']).status === 0;

let env: TestEnv;
let dir: string;
beforeAll(async () => {
  env = await createTestEnv('deploy_roles');
  dir = mkdtempSync(join(tmpdir(), 'postbus-roles-'));
  for (const [file, text] of Object.entries(scripts)) writeFileSync(join(dir, file), text);
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await env?.drop();
});

const urlAs = (service: string) =>
  Object.assign(new URL(env.databaseUrl), {
    username: `postbus_${service}`,
    password: `job-test-${service}`,
  }).toString();

async function tryAs(service: string, sql: string): Promise<string> {
  const c = new Client({ connectionString: urlAs(service) });
  await c.connect();
  try {
    await c.query(sql);
    return 'allowed';
  } catch (err) {
    return (err as { code: string }).code;
  } finally {
    await c.end();
  }
}

test('when the Job is rendered, then it is given the admin URL and every service URL whose role it creates, from the Secret', () => {
  const [container] = job.spec.template.spec.containers;
  const names = container.env.map((e: { name: string }) => e.name).sort();
  const services = (scripts['provision.sh'].match(/for service in ([a-z ]+); do/) ?? [])[1].split(' ');

  expect(names).toEqual(['DATABASE_ADMIN_URL', ...services.map((s) => `${s.toUpperCase()}_DATABASE_URL`)].sort());
  expect(services).toEqual(
    expect.arrayContaining(['auth', 'connections', 'gateway', 'media', 'posts', 'publisher', 'webhooks', 'automation']),
  );
  for (const e of container.env) expect(e.valueFrom.secretKeyRef.name).toBe('postbus-secrets');
});

(hasPsql ? test : test.skip)(
  "when the Job's script runs against a database, then each service's role owns its schema and cannot touch another's (posts ↔ connections)",
  () => {
    const urls = Object.fromEntries(
      job.spec.template.spec.containers[0].env
        .filter((e: { name: string }) => e.name !== 'DATABASE_ADMIN_URL')
        .map((e: { name: string }) => [e.name, urlAs(e.name.replace(/_DATABASE_URL$/, '').toLowerCase())]),
    );
    const out = execFileSync('sh', [join(dir, 'provision.sh')], {
      env: { PATH: process.env.PATH, DATABASE_ADMIN_URL: env.databaseUrl, ...urls },
      encoding: 'utf8',
    });
    expect(out).toContain('postbus_posts owns schema posts');
    return (async () => {
      expect(await tryAs('posts', 'CREATE TABLE posts.notes (id int)')).toBe('allowed');
      expect(await tryAs('connections', 'CREATE TABLE connections.secrets (id int)')).toBe('allowed');
      expect(await tryAs('posts', 'SELECT * FROM connections.secrets')).toBe('42501');
      expect(await tryAs('connections', 'INSERT INTO posts.notes VALUES (1)')).toBe('42501');
      expect(await tryAs('posts', 'CREATE SCHEMA elsewhere')).toBe('42501');
    })();
  },
);
