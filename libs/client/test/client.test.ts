import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../../../tests/system/support/system';
import { createClient, PostbusError } from '../src';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

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
    const post = await client.waitForPost(created.postIds[0], { timeoutMs: 15_000 });
    expect(post.status).toBe('posted');
    expect(post.permalink).toMatch(/threads\.net/);
  });

  test('when an image is uploaded through it, then its mediaId publishes a post that carries the image', async () => {
    const account = await system.seedAccount({ platforms: ['threads'] });
    const client = createClient({ baseUrl: system.baseUrl, apiKey: account.apiKey });
    const media = await client.uploadMedia(PNG, { filename: 'pixel.png' });
    expect(media).toMatchObject({
      success: true,
      mediaId: expect.stringMatching(/^med_/),
      url: expect.stringContaining(`/files/${media.mediaId}`),
    });
    const { postIds } = await client.publish({
      platforms: ['threads'],
      caption: 'with an image',
      mediaId: media.mediaId,
    });
    const post = await client.waitForPost(postIds[0], { timeoutMs: 15_000 });
    expect(post.status).toBe('posted');
    expect(post.mediaUrls[0]).toContain(`/files/${media.mediaId}`);
  });

  test('when the upload is not an image or video, then a PostbusError unsupported_media_type', async () => {
    const account = await system.seedAccount({ platforms: ['threads'] });
    const client = createClient({ baseUrl: system.baseUrl, apiKey: account.apiKey });
    await expect(
      client.uploadMedia(new TextEncoder().encode('just text'), { filename: 'note.txt' }),
    ).rejects.toMatchObject({ status: 400, code: 'unsupported_media_type' });
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
          res
            .writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' })
            .end(JSON.stringify({ error: 'slow down', code: 'rate_limited' }));
        } else if (calls === 2) {
          res
            .writeHead(503, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: 'busy', code: 'service_unavailable' }));
        } else {
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ id: 'pst_1', status: 'posted' }));
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
      const always = createServer((_req, res) =>
        res
          .writeHead(429, { 'retry-after': '0', 'content-type': 'application/json' })
          .end(JSON.stringify({ error: 'no', code: 'rate_limited' })),
      );
      await new Promise<void>((r) => always.listen(0, '127.0.0.1', r));
      const client = createClient({
        baseUrl: `http://127.0.0.1:${(always.address() as AddressInfo).port}`,
        apiKey: 'k',
        retries: 2,
      });
      await expect(client.getPost('x')).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
      await new Promise<void>((r) => always.close(() => r()));
    });
  });

  describe('waiting for an outcome', () => {
    let server: Server;
    let url: string;
    const asked: string[] = [];
    beforeAll(async () => {
      // Answers scheduled to a plain read and to a short wait, posted to a wait the API allows.
      server = createServer((req, res) => {
        asked.push(req.url!);
        const query = new URL(req.url!, 'http://x').searchParams;
        const status = query.get('waitFor') === 'final' && Number(query.get('timeout')) >= 5 ? 'posted' : 'scheduled';
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'pst_1', status }));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    test('when waiting, then each read is a long poll of at most 25 s (waitFor=final), not a steady poll', async () => {
      const client = createClient({ baseUrl: url, apiKey: 'k' });
      await expect(client.waitForPost('pst_1', { timeoutMs: 120_000 })).resolves.toMatchObject({ status: 'posted' });
      expect(asked).toEqual(['/api/v1/posts/pst_1?waitFor=final&timeout=25']);
    });

    test('when the post is not final within timeoutMs, then a PostbusError timeout naming its status', async () => {
      asked.length = 0;
      const client = createClient({ baseUrl: url, apiKey: 'k' });
      await expect(client.waitForPost('pst_1', { timeoutMs: 1_000 })).rejects.toMatchObject({
        status: 408,
        code: 'timeout',
        message: expect.stringContaining('still scheduled'),
      });
      expect(asked[0]).toBe('/api/v1/posts/pst_1?waitFor=final&timeout=1');
    });
  });

  test('when the contracts change, then the generated types are regenerated (schema.ts is up to date)', () => {
    const root = join(__dirname, '..', '..', '..');
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'generate-client.ts'), '--check'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(r.stderr.replace(/npm warn.*\n/g, '')).toBe('');
    expect(r.status).toBe(0);
  });
});
