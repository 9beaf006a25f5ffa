import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { api, inHours } from '../support/posts-api';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('posts_media');
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

/** Uploads through the real media service, as a client would. */
async function upload(key: string): Promise<{ mediaId: string; url: string }> {
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'pixel.png');
  const res = await fetch(`${system.baseUrl}/api/v1/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  const body = await res.json();
  if (res.status !== 201 && res.status !== 200)
    throw new Error(
      `the media service did not take the upload (${res.status} ${JSON.stringify(body)}); media.resolve cannot be checked without it`,
    );
  return body as { mediaId: string; url: string };
}

const create = (body: unknown, key = account.apiKey) => api(system, '/api/v1/posts', { method: 'POST', key, body });

describe('posts with a mediaId', () => {
  test('when the mediaId is the account’s uploaded media, then the post carries its serve URL in mediaUrls', async () => {
    const media = await upload(account.apiKey);
    const r = await create({
      platforms: ['threads'],
      mediaId: media.mediaId,
      mediaUrls: ['https://cdn.example.com/second.jpg'],
      scheduledTime: inHours(2),
    });
    expect(r.status).toBe(201);
    const post = (await api(system, `/api/v1/posts/${r.body.postIds[0]}`, { key: account.apiKey })).body;
    expect(post.mediaUrls).toHaveLength(2);
    expect(post.mediaUrls[0].startsWith(`${system.baseUrl}/files/${media.mediaId}`)).toBe(true);
    expect(post.mediaUrls[1]).toBe('https://cdn.example.com/second.jpg');
    const served = await fetch(post.mediaUrls[0]);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
  });

  test('when media does not know the mediaId, then 400 media_not_found and nothing is stored', async () => {
    const r = await create({
      platforms: ['threads'],
      caption: 'with missing media',
      mediaId: 'med_doesnotexist',
      externalId: 'media-missing',
    });
    expect({ status: r.status, code: r.body?.code }).toEqual({ status: 400, code: 'media_not_found' });
    expect(
      (await api(system, '/api/v1/posts?externalId=media-missing', { key: account.apiKey })).body.data,
    ).toHaveLength(0);
  });

  test('when the mediaId is another account’s, then 400 media_not_found', async () => {
    const other = await system.seedAccount({ platforms: ['threads'], plan: 'pro' });
    const theirs = await upload(other.apiKey);
    const r = await create({ platforms: ['threads'], caption: 'borrowed', mediaId: theirs.mediaId });
    expect({ status: r.status, code: r.body?.code }).toEqual({ status: 400, code: 'media_not_found' });
  });

  test('when a post is changed to an unknown mediaId, then 400 media_not_found; validate lists it as a problem of mediaId', async () => {
    const created = await create({ platforms: ['threads'], caption: 'plain', scheduledTime: inHours(3) });
    const r = await api(system, `/api/v1/posts/${created.body.postIds[0]}`, {
      method: 'PATCH',
      key: account.apiKey,
      body: { mediaId: 'med_nothing' },
    });
    expect({ status: r.status, code: r.body?.code }).toEqual({ status: 400, code: 'media_not_found' });
    const v = await api(system, '/api/v1/posts/validate', {
      method: 'POST',
      key: account.apiKey,
      body: { platforms: ['threads'], mediaId: 'med_nothing' },
    });
    expect(v.body).toEqual({
      valid: false,
      problems: [expect.objectContaining({ code: 'media_not_found', field: 'mediaId' })],
    });
  });
});
