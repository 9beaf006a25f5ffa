import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anMp4, createTestEnv, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { callTool } from '../support/mcp-client';
import { call, DatabaseFingerprint, isCodedRefusal } from './support';

/**
 * Media links are fetched later, by the publisher: a post must not turn it into a client of the
 * inside of the network. The system runs as deployed (the publisher off loopback): links that
 * are not http(s) or carry credentials, or hold more items than the platform takes, are refused
 * when the post is written; links to loopback, private or metadata addresses, directly or
 * through a redirect, are never requested, and the post fails saying so without naming where.
 */

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let fingerprint: DatabaseFingerprint;
/** A service inside the network: it records every request it receives. */
let inside: Server;
let insidePort: number;
const hits: string[] = [];

// a real file: every stored file is read by ffprobe
const MP4 = anMp4(64_024);

beforeAll(async () => {
  inside = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.push(`${req.method} ${path}`);
    if (path === '/files/to-inside')
      return void res.writeHead(302, { location: `http://127.0.0.1:${insidePort}/internal/after-redirect` }).end();
    if (path === '/files/to-private') return void res.writeHead(302, { location: 'http://10.0.0.1/internal' }).end();
    res
      .writeHead(200, { 'content-type': 'video/mp4', 'content-length': 1000 })
      .end(req.method === 'HEAD' ? undefined : Buffer.alloc(1000));
  });
  await new Promise<void>((resolve) => inside.listen(0, '127.0.0.1', resolve));
  insidePort = (inside.address() as AddressInfo).port;

  env = await createTestEnv('hostile_ssrf');
  system = await startSystem(env, {
    RATE_LIMIT_PER_MINUTE: '0',
    PUBLISHER_ALLOW_LOOPBACK_MEDIA: 'false',
    // The inside service stands for our own media service: its signed file links are trusted, where they redirect is not.
    MEDIA_HTTP_URL: `http://127.0.0.1:${insidePort}`,
  });
  account = await system.seedAccount({
    platforms: ['instagram', 'threads', 'facebook', 'tiktok', 'youtube'],
    plan: 'pro',
  });
  fingerprint = await DatabaseFingerprint.open(env.databaseUrl);
});
afterAll(async () => {
  await fingerprint?.close();
  await system?.stop();
  await env?.drop();
  inside?.closeAllConnections();
  await new Promise((resolve) => inside?.close(resolve));
});

const urls = (n: number) => Array.from({ length: n }, (_, i) => `https://cdn.example.com/photo-${i}.jpg`);
const tiktok = { title: 'A clip', platformMeta: { tiktok: { privacyLevel: 'SELF_ONLY' } } };
const youtube = { title: 'A video' };

describe('links refused when the post is written', () => {
  const refusedLinks: [string, Record<string, unknown>, string][] = [
    ['a file: link', { platforms: ['threads'], mediaUrls: ['file:///etc/passwd'] }, 'mediaUrls[0]'],
    [
      'a gopher: link',
      { platforms: ['threads'], mediaUrls: ['https://cdn.example.com/a.jpg', 'gopher://127.0.0.1:6379/_FLUSHALL'] },
      'mediaUrls[1]',
    ],
    [
      'credentials in the link',
      { platforms: ['threads'], mediaUrls: ['https://admin:secret@cdn.example.com/a.jpg'] },
      'mediaUrls[0]',
    ],
    [
      'a file: YouTube thumbnail',
      {
        platforms: ['youtube'],
        ...youtube,
        mediaUrls: ['https://cdn.example.com/v.mp4'],
        platformMeta: { youtube: { thumbnailUrl: 'file:///etc/shadow' } },
      },
      'platformMeta.youtube.thumbnailUrl',
    ],
    [
      'an ftp: Instagram cover',
      {
        platforms: ['instagram'],
        mediaUrls: ['https://cdn.example.com/v.mp4'],
        platformMeta: { instagram: { coverUrl: 'ftp://cdn.example.com/c.jpg' } },
      },
      'platformMeta.instagram.coverUrl',
    ],
  ];
  const overCap: [string, Record<string, unknown>, string][] = [
    ['Instagram', { platforms: ['instagram'], mediaUrls: urls(11) }, '10'],
    ['Threads', { platforms: ['threads'], mediaUrls: urls(21) }, '20'],
    ['Facebook', { platforms: ['facebook'], mediaUrls: urls(11) }, '10'],
    [
      'YouTube',
      {
        platforms: ['youtube'],
        ...youtube,
        mediaUrls: ['https://cdn.example.com/a.mp4', 'https://cdn.example.com/b.mp4'],
      },
      '1',
    ],
    ['TikTok', { platforms: ['tiktok'], ...tiktok, mediaUrls: urls(36) }, '35'],
  ];

  test.each(refusedLinks)(
    'when a post carries %s, then create, schedule, drafts and validate refuse it as media_url_refused naming the field, and nothing is stored',
    async (_what, body, field) => {
      const before = await fingerprint.take();
      for (const path of ['/api/v1/posts', '/api/v1/publish', '/api/v1/posts/drafts']) {
        const answer = await call(system.baseUrl, 'post', path, { key: account.apiKey, body });
        expect({ path, status: answer.status, code: answer.body?.code }).toEqual({
          path,
          status: 400,
          code: 'media_url_refused',
        });
        expect(answer.body.error).toContain(field);
        expect(answer.body.error).not.toContain('secret');
      }
      const validation = await call(system.baseUrl, 'post', '/api/v1/posts/validate', { key: account.apiKey, body });
      expect(validation.status).toBe(200);
      expect(validation.body).toMatchObject({
        valid: false,
        problems: [expect.objectContaining({ code: 'media_url_refused', field })],
      });
      expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
    },
  );

  test.each(overCap)(
    'when a post for %s has more media items than the platform takes, then it is refused naming the cap, and validate reports it',
    async (name, body, max) => {
      const before = await fingerprint.take();
      const answer = await call(system.baseUrl, 'post', '/api/v1/posts', { key: account.apiKey, body });
      expect(isCodedRefusal(answer)).toBe(true);
      expect(answer.body.code).toBe('validation_error');
      expect(answer.body.error).toMatch(new RegExp(`${name === 'TikTok' ? 'mediaUrls|TikTok' : name}.*\\b${max}\\b`));
      const validation = await call(system.baseUrl, 'post', '/api/v1/posts/validate', { key: account.apiKey, body });
      expect(validation.body.valid).toBe(false);
      expect(validation.body.problems).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ code: 'validation_error', platform: name.toLowerCase(), field: 'mediaUrls' }),
        ]),
      );
      expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
    },
  );

  test('when a post has exactly as many items as the platform takes, then it is accepted', async () => {
    const answer = await call(system.baseUrl, 'post', '/api/v1/posts/drafts', {
      key: account.apiKey,
      body: { platforms: ['instagram'], mediaUrls: urls(10) },
    });
    expect(answer.status).toBe(201);
  });

  test('when a scheduled post is changed to carry a refused link, then PATCH answers media_url_refused and the post is unchanged', async () => {
    const created = await call(system.baseUrl, 'post', '/api/v1/posts/drafts', {
      key: account.apiKey,
      body: { platforms: ['threads'], caption: 'draft', mediaUrls: ['https://cdn.example.com/a.jpg'] },
    });
    const id = created.body.postIds[0];
    const answer = await call(system.baseUrl, 'patch', `/api/v1/posts/${id}`, {
      key: account.apiKey,
      body: { mediaUrls: ['gopher://10.0.0.1:70/_x'] },
    });
    expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 400, code: 'media_url_refused' });
    const post = await call(system.baseUrl, 'get', `/api/v1/posts/${id}`, { key: account.apiKey });
    expect(post.body.mediaUrls).toEqual(['https://cdn.example.com/a.jpg']);
  });

  test('when an agent schedules a post with a refused link, then the tool answers media_url_refused in-band', async () => {
    const answer = await callTool(
      system.baseUrl,
      'svc_schedule_post',
      { platforms: ['threads'], mediaUrls: ['file:///etc/passwd'] },
      account.apiKey,
    );
    expect(answer.error?.code).toBe('media_url_refused');
  });
});

/** Publishes now and waits for the post to end; answers it. */
async function publishNow(body: Record<string, unknown>): Promise<{ status: string; failedReason: string | null }> {
  const created = await call(system.baseUrl, 'post', '/api/v1/publish', { key: account.apiKey, body });
  expect(created.status).toBe(201);
  const id = created.body.postIds[0];
  return waitFor(
    async () => {
      const post = await call(system.baseUrl, 'get', `/api/v1/posts/${id}`, { key: account.apiKey });
      return post.body.status === 'failed' || post.body.status === 'posted' ? post.body : undefined;
    },
    { timeoutMs: 30_000, what: `the end of post ${id}` },
  );
}

const REFUSED = /points at an address Postbus does not fetch from/;

describe('links the publisher does not fetch from', () => {
  test('when a YouTube post links to a service on loopback, then the publisher sends it nothing and the reason names neither its address nor its port', async () => {
    const before = hits.length;
    const post = await publishNow({
      platforms: ['youtube'],
      ...youtube,
      mediaUrls: [`http://127.0.0.1:${insidePort}/internal/admin`],
    });
    expect(post.status).toBe('failed');
    expect(post.failedReason).toMatch(REFUSED);
    expect(post.failedReason).not.toContain('127.0.0.1');
    expect(post.failedReason).not.toContain(String(insidePort));
    expect(hits.slice(before)).toEqual([]);
  });

  test.each([
    ['Threads (the kind asked with HEAD)', { platforms: ['threads'] }, 'http://127.0.0.1:PORT/internal/photo'],
    [
      'TikTok (the video uploaded from the link)',
      { platforms: ['tiktok'], ...tiktok },
      'http://localhost:PORT/internal/clip.mp4',
    ],
    ['YouTube, IPv6 loopback', { platforms: ['youtube'], ...youtube }, 'http://[::1]:PORT/internal'],
    ['YouTube, a private address', { platforms: ['youtube'], ...youtube }, 'http://10.0.0.1/internal/admin'],
    [
      'YouTube, the cloud metadata address',
      { platforms: ['youtube'], ...youtube },
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
    ],
    [
      'Facebook reel, a private address',
      { platforms: ['facebook'], platformMeta: { facebook: { reel: true } } },
      'http://192.168.1.1/clip.mp4',
    ],
  ])(
    'when a %s link points inside the network, then the post fails without naming where and nothing is requested',
    async (_what, body, raw) => {
      const link = raw.replace('PORT', String(insidePort));
      const before = hits.length;
      const post = await publishNow({ ...body, mediaUrls: [link] });
      expect(post.status).toBe('failed');
      expect(post.failedReason).toMatch(REFUSED);
      for (const secret of [new URL(link).hostname.replace(/[[\]]/g, ''), String(insidePort), '/internal', '/latest'])
        expect(post.failedReason).not.toContain(secret);
      expect(hits.slice(before)).toEqual([]);
    },
  );

  test('when one of our own file links redirects inside the network, then the redirect is judged again and not followed', async () => {
    for (const path of ['/files/to-inside', '/files/to-private']) {
      const before = hits.length;
      const post = await publishNow({
        platforms: ['youtube'],
        ...youtube,
        mediaUrls: [`http://127.0.0.1:${insidePort}${path}?expires=1&sig=x`],
      });
      expect(post.status).toBe('failed');
      expect(post.failedReason).toMatch(REFUSED);
      expect(post.failedReason).not.toMatch(/127\.0\.0\.1|10\.0\.0\.1/);
      // the trusted link itself was asked; the place it pointed to, never
      expect(hits.slice(before).every((h) => h.endsWith(path))).toBe(true);
      expect(hits.slice(before).length).toBeGreaterThan(0);
    }
  });

  test('when the media is our own upload, then the publisher reads its signed link though it is on loopback, and the post is published', async () => {
    const form = new FormData();
    form.append('file', new Blob([MP4]), 'clip.mp4');
    const uploaded = await fetch(`${system.baseUrl}/api/v1/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.apiKey}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const { mediaId } = (await uploaded.json()) as { mediaId: string };
    const post = await publishNow({ platforms: ['youtube'], ...youtube, mediaId });
    expect(post).toMatchObject({ status: 'posted', failedReason: null });
  });
});
