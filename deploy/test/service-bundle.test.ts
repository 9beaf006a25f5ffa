import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestEnv, freePort, metricSample, waitFor, type TestEnv } from '@postbus/testing';
import { ROOT } from './support/service-config';

// What the image's build stage does (deploy/build/bundle-service.mjs), run here for the publisher,
// then the bundle started with plain node against a test database and bus namespace.
jest.setTimeout(120_000);

const SERVICE = 'publisher';
let env: TestEnv;
let out: string;
let child: ChildProcess | undefined;
let manifestsBefore: string;

const manifests = () =>
  ['libs', 'services']
    .flatMap((dir) => readdirSync(join(ROOT, dir)).map((name) => join(ROOT, dir, name, 'package.json')))
    .filter(existsSync)
    .map((file) => `${file}:${createHash('sha256').update(readFileSync(file)).digest('hex')}`)
    .join('\n');

beforeAll(async () => {
  env = await createTestEnv('bundle');
  out = join(mkdtempSync(join(tmpdir(), 'postbus-bundle-')), SERVICE);
  manifestsBefore = manifests();
  await promisify(execFile)(process.execPath, [join(ROOT, 'deploy', 'build', 'bundle-service.mjs'), SERVICE, out], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
  });
});
afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  rmSync(join(out, '..'), { recursive: true, force: true });
  await env?.drop();
});

test('when a service is bundled, then it holds its production dependencies only and JavaScript instead of TypeScript, and the repository is untouched', () => {
  const store = readdirSync(join(out, 'node_modules', '.pnpm'));
  const own = [
    out,
    ...store
      .filter((d) => d.startsWith('@postbus+'))
      .map((d) => join(out, 'node_modules', '.pnpm', d, 'node_modules', '@postbus', d.split('@')[1].split('+')[1])),
  ];
  const sources = own.flatMap((dir) => readdirSync(join(dir, 'src'), { recursive: true }).map(String));

  for (const dev of ['typescript', 'tsx', 'jest', '@swc+core', 'playwright-core', '@postbus+testing'])
    expect([dev, store.some((d) => d.startsWith(`${dev}@`))]).toEqual([dev, false]);
  expect(store.some((d) => d.startsWith('amqplib@'))).toBe(true);
  expect(sources.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  expect(sources).toContain('main.js');
  expect(JSON.parse(readFileSync(join(own[1], 'package.json'), 'utf8')).main).toBe('src/index.js');
  expect(existsSync(join(out, 'test'))).toBe(false);
  expect(manifests()).toBe(manifestsBefore);
});

test('when the bundle starts with plain node, then it migrates, becomes ready, serves metrics, and drains and exits 0 on SIGTERM', async () => {
  const port = await freePort();
  child = spawn(process.execPath, ['--enable-source-maps', 'src/main.js'], {
    cwd: out,
    env: { PATH: process.env.PATH, ...env.env, METRICS_PORT: String(port), NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));

  const ready = await waitFor(
    async () => {
      if (child!.exitCode !== null) throw new Error(`the bundle exited: ${stderr}`);
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      return res.ok ? res.json() : undefined;
    },
    { timeoutMs: 30_000, what: 'the bundled service to be ready' },
  );
  const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  child.kill('SIGTERM');

  expect(ready).toEqual({ status: 'ok', checks: { broker: 'ok', database: 'ok' } });
  expect(metricSample(metrics, 'postbus_dependency_up', { service: SERVICE, dependency: 'database' })).toBe(1);
  expect(await exited).toBe(0);
  expect(stderr).toBe('');
});
