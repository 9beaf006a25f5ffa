import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createTestEnv, startSystem, type RunningSystem, type TestEnv } from '@postbus/testing';
import { createClient, PostbusError } from '../src';

let env: TestEnv;
let system: RunningSystem;

beforeAll(async () => {
  env = await createTestEnv('client');
  system = await startSystem(env);
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

describe('the typed client', () => {
  test('when a post is published through it, then waitForPost answers it posted with a permalink', async () => {
    const account = await system.seedAccount({ platforms: ['threads'] });
    const client = createClient({ baseUrl: system.baseUrl, apiKey: account.apiKey });
    const created = await client.publish({ platforms: ['threads'], caption: `typed client ${Date.now()}` });
    expect(created.postIds).toHaveLength(1);
    const post = await client.waitForPost(created.postIds[0], { timeoutMs: 15_000, intervalMs: 100 });
    expect(post.status).toBe('posted');
    expect(post.permalink).toMatch(/threads\.net/);
  });

  test('when the API refuses, then a PostbusError carries the status and the code', async () => {
    const account = await system.seedAccount({ platforms: ['threads'] });
    const client = createClient({ baseUrl: system.baseUrl, apiKey: account.apiKey });
    const err = await client.getPost('pst_missing').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PostbusError);
    expect(err).toMatchObject({ status: 404, code: 'post_not_found' });
  });

  describe('against a server that throttles', () => {
    let server: Server;
    let url: string;
    const seen: number[] = [];
    beforeAll(async () => {
      let calls = 0;
      server = createServer((req, res) => {
        seen.push(Date.now());
        calls++;
        if (calls === 1) {
          res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end(JSON.stringify({ error: 'slow down', code: 'rate_limited' }));
        } else if (calls === 2) {
          res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'busy', code: 'service_unavailable' }));
        } else {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'pst_1', status: 'posted' }));
        }
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    test('when it answers 429 with Retry-After then 503, then the client waits and retries until it succeeds', async () => {
      const client = createClient({ baseUrl: url, apiKey: 'sk_live_x' });
      const post = await client.getPost('pst_1');
      expect(post).toEqual({ id: 'pst_1', status: 'posted' });
      expect(seen).toHaveLength(3);
      expect(seen[1] - seen[0]).toBeGreaterThanOrEqual(900);
    });

    test('when retries are exhausted, then the last error is raised', async () => {
      seen.length = 0;
      const always = createServer((_req, res) => res.writeHead(429, { 'retry-after': '0', 'content-type': 'application/json' }).end(JSON.stringify({ error: 'no', code: 'rate_limited' })));
      await new Promise<void>((r) => always.listen(0, '127.0.0.1', r));
      const client = createClient({ baseUrl: `http://127.0.0.1:${(always.address() as AddressInfo).port}`, apiKey: 'k', retries: 2 });
      await expect(client.getPost('x')).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
      await new Promise<void>((r) => always.close(() => r()));
    });
  });

  test('when the contracts change, then the generated types are regenerated (schema.ts is up to date)', () => {
    const root = join(__dirname, '..', '..', '..');
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'generate-client.ts'), '--check'], { cwd: root, encoding: 'utf8' });
    expect(r.stderr.replace(/npm warn.*\n/g, '')).toBe('');
    expect(r.status).toBe(0);
  });
});
