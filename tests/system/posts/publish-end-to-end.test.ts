import { createTestEnv, waitFor, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

let env: TestEnv;
let system: RunningSystem;

beforeAll(async () => {
  env = await createTestEnv('e2e_publish');
  system = await startSystem(env);
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

async function api(
  path: string,
  init: { method?: string; key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  if (init.body !== undefined || init.rawBody !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${system.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

async function published(platform: string): Promise<{ text: string }[]> {
  const res = await fetch(`${system.sandboxUrl}/__sandbox/published?platform=${platform}`);
  const body = (await res.json()) as { items: { text: string }[] } | { text: string }[];
  return Array.isArray(body) ? body : body.items;
}

describe('publishing a post end to end', () => {
  test('when a post is published with a key, then it reaches posted with the sandbox permalink, published once', async () => {
    const account = await system.seedAccount({ platforms: ['threads'] });
    const caption = `hello from the pipeline ${Date.now()}`;
    const created = await api('/api/v1/publish', {
      method: 'POST',
      key: account.apiKey,
      body: { platforms: ['threads'], caption },
    });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('scheduled');
    expect(created.body.postIds).toHaveLength(1);
    expect(Date.parse(created.body.scheduledTime)).toBeGreaterThan(Date.now() - 1000);

    const [postId] = created.body.postIds;
    const post = await waitFor(
      async () => {
        const r = await api(`/api/v1/posts/${postId}`, { key: account.apiKey });
        return r.body.status === 'scheduled' ? undefined : r.body;
      },
      { timeoutMs: 15_000, what: 'the post to leave scheduled' },
    );
    expect(post).toMatchObject({
      id: postId,
      status: 'posted',
      caption,
      platforms: ['threads'],
      profileIds: [account.profiles[0].id],
      failedReason: null,
    });
    expect(post.permalink).toMatch(/^https:\/\/www\.threads\.net\/@.+\/post\/.+/);
    expect(Date.parse(post.publishedAt)).not.toBeNaN();
    expect((await published('threads')).filter((p) => p.text === caption)).toHaveLength(1);
  });

  test('when the platform refuses the publish, then the post becomes failed with a readable reason', async () => {
    const account = await system.seedAccount({ platforms: ['threads'] });
    const fault = await fetch(`${system.sandboxUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ platform: 'threads', mode: 'error', code: 100, count: 1 }),
    });
    expect(fault.ok).toBe(true);
    const created = await api('/api/v1/posts', {
      method: 'POST',
      key: account.apiKey,
      body: { platforms: ['threads'], caption: 'this one fails' },
    });
    expect(created.status).toBe(201);
    const post = await waitFor(
      async () => {
        const r = await api(`/api/v1/posts/${created.body.postIds[0]}`, { key: account.apiKey });
        return r.body.status === 'scheduled' ? undefined : r.body;
      },
      { timeoutMs: 15_000, what: 'the post to fail' },
    );
    expect(post.status).toBe('failed');
    expect(post.failedReason).toEqual(expect.any(String));
    expect(post.failedReason.length).toBeGreaterThan(15);
    expect(post.failedReason).not.toMatch(/^\d+$/);
    expect(post.publishedAt).toBeNull();
    expect(post.permalink).toBeNull();
  });
});

describe('edge errors', () => {
  test('when the body is not JSON, then 400 invalid_json', async () => {
    const account = await system.seedAccount({ platforms: [] });
    const r = await api('/api/v1/posts', { method: 'POST', key: account.apiKey, rawBody: '{"platforms": [' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: expect.any(String), code: 'invalid_json' });
  });

  test('when the route does not exist, then 404 not_found', async () => {
    const r = await api('/api/v1/nothing-here');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: expect.any(String), code: 'not_found' });
  });

  test('when no key is sent, then 401 missing_api_key', async () => {
    const r = await api('/api/v1/posts', { method: 'POST', body: { platforms: ['threads'], caption: 'x' } });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: expect.any(String), code: 'missing_api_key' });
    const basic = await api('/api/v1/posts/pst_x', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(basic.body.code).toBe('missing_api_key');
  });

  test('when the key is unknown, then 401 invalid_api_key', async () => {
    const r = await api('/api/v1/posts/pst_x', { key: `sk_live_${'x'.repeat(43)}` });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('invalid_api_key');
  });

  test('when another account asks for a post, then 404 post_not_found as for a missing one', async () => {
    const a = await system.seedAccount({ platforms: ['threads'] });
    const b = await system.seedAccount({ platforms: [] });
    const created = await api('/api/v1/posts', {
      method: 'POST',
      key: a.apiKey,
      body: { platforms: ['threads'], caption: 'mine', scheduledTime: new Date(Date.now() + 3600_000).toISOString() },
    });
    const theirs = await api(`/api/v1/posts/${created.body.postIds[0]}`, { key: b.apiKey });
    const missing = await api('/api/v1/posts/pst_doesnotexist', { key: b.apiKey });
    expect(theirs.status).toBe(404);
    expect(theirs.body.code).toBe('post_not_found');
    expect(missing.body.code).toBe('post_not_found');
  });
});
