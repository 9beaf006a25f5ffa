import { createTestEnv, metricSample, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { api, inHours } from '../support/posts-api';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('post_outcome_wait');
  system = await startSystem(env);
  account = await system.seedAccount({ platforms: ['threads'], plan: 'pro' });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function scheduledPost(caption: string, scheduledTime = inHours(2)): Promise<string> {
  const r = await api(system, '/api/v1/posts', {
    method: 'POST',
    key: account.apiKey,
    body: { platforms: ['threads'], caption, scheduledTime },
  });
  expect(r.status).toBe(201);
  return r.body.postIds[0];
}
const get = (path: string, headers: Record<string, string> = {}) => api(system, path, { key: account.apiKey, headers });
const waiters = async () =>
  metricSample(await (await fetch(`${system.metricsUrls.gateway}/metrics`)).text(), 'postbus_gateway_post_waiters');

describe('ETag and If-None-Match', () => {
  test('when a post is read again with the ETag of its last answer, then 304 without a body; a stale ETag gets the post', async () => {
    const id = await scheduledPost('etag before');
    const first = await get(`/api/v1/posts/${id}`);
    const tag = first.headers.get('etag');
    expect(tag).toMatch(/^W\/".+"$/);

    const same = await get(`/api/v1/posts/${id}`, { 'if-none-match': tag! });
    expect(same.status).toBe(304);
    expect(same.body).toBeUndefined();
    expect(same.headers.get('etag')).toBe(tag);

    expect(
      (
        await api(system, `/api/v1/posts/${id}`, {
          method: 'PATCH',
          key: account.apiKey,
          body: { caption: 'etag after' },
        })
      ).status,
    ).toBe(200);
    const changed = await get(`/api/v1/posts/${id}`, { 'if-none-match': tag! });
    expect(changed.status).toBe(200);
    expect(changed.body.caption).toBe('etag after');
    expect(changed.headers.get('etag')).not.toBe(tag);
  });

  test('when a media asset is read again with its ETag, then 304; with another tag, the asset with a signed URL', async () => {
    const form = new FormData();
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'pixel.png');
    const uploaded = await fetch(`${system.baseUrl}/api/v1/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.apiKey}` },
      body: form,
    });
    const { mediaId } = (await uploaded.json()) as { mediaId: string };
    const first = await get(`/api/v1/media/${mediaId}`);
    expect(first.status).toBe(200);
    const tag = first.headers.get('etag')!;
    expect(tag).toMatch(/^W\/".+"$/);

    const same = await get(`/api/v1/media/${mediaId}`, { 'if-none-match': tag });
    expect([same.status, same.body]).toEqual([304, undefined]);
    const stale = await get(`/api/v1/media/${mediaId}`, { 'if-none-match': 'W/"not-this-version"' });
    expect(stale.status).toBe(200);
    expect(stale.body).toMatchObject({ mediaId, url: expect.stringContaining(`/files/${mediaId}`) });
  });
});

describe('GET /api/v1/posts/{id}?waitFor=final', () => {
  test('when the post is published while the caller waits, then the answer is the posted post, marked final', async () => {
    const id = await scheduledPost('wait for me');
    // Bounded well below the 30 s wait: only a waiter woken by the outcome answers within it.
    const answer = fetch(`${system.baseUrl}/api/v1/posts/${id}?waitFor=final&timeout=30`, {
      headers: { authorization: `Bearer ${account.apiKey}` },
      signal: AbortSignal.timeout(20_000),
    });
    await waitFor(async () => ((await waiters()) === 1 ? true : undefined), {
      timeoutMs: 10_000,
      what: 'the caller to wait',
    });

    // Brought forward, the post is dispatched by the next scheduler run and published.
    const soon = new Date(Date.now() + 1500).toISOString();
    expect(
      (
        await api(system, `/api/v1/posts/${id}`, {
          method: 'PATCH',
          key: account.apiKey,
          body: { scheduledTime: soon },
        })
      ).status,
    ).toBe(200);

    const done = await answer;
    expect(done.status).toBe(200);
    expect(((await done.json()) as { status: string }).status).toBe('posted');
    expect(done.headers.get('postbus-final')).toBe('true');
    expect(await waiters()).toBe(0);
  });

  test('when the post does not finish within the timeout, then its current state, marked not final', async () => {
    const id = await scheduledPost('never yet');
    const r = await get(`/api/v1/posts/${id}?waitFor=final&timeout=1`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id, status: 'scheduled' });
    expect(r.headers.get('postbus-final')).toBe('false');
  });

  test('when the caller goes away while waiting, then its waiter is freed', async () => {
    const id = await scheduledPost('gone caller');
    const abort = new AbortController();
    const pending = fetch(`${system.baseUrl}/api/v1/posts/${id}?waitFor=final&timeout=30`, {
      headers: { authorization: `Bearer ${account.apiKey}` },
      signal: abort.signal,
    }).catch((err: Error) => err);
    await waitFor(async () => ((await waiters()) === 1 ? true : undefined), {
      timeoutMs: 10_000,
      what: 'the caller to wait',
    });
    abort.abort();
    expect(await pending).toMatchObject({ name: 'AbortError' });
    await waitFor(async () => ((await waiters()) === 0 ? true : undefined), {
      timeoutMs: 10_000,
      what: 'the waiter to be freed',
    });
  });

  test.each([
    ['timeout=0', 'waitFor=final&timeout=0'],
    ['timeout=31', 'waitFor=final&timeout=31'],
    ['a timeout that is not a number', 'waitFor=final&timeout=soon'],
    ['waitFor other than final', 'waitFor=posted'],
  ])('when the query has %s, then 400 validation_error', async (_what, query) => {
    const id = await scheduledPost(`invalid ${query}`);
    const r = await get(`/api/v1/posts/${id}?${query}`);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('validation_error');
  });
});
