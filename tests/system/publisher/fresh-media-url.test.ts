import { createTestEnv, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

const URL_TTL_SECONDS = 2;

beforeAll(async () => {
  env = await createTestEnv('fresh_media_url');
  system = await startSystem(env, { MEDIA_URL_TTL_SECONDS: String(URL_TTL_SECONDS) });
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
const auth = () => ({ authorization: `Bearer ${account.apiKey}` });

async function upload(): Promise<{ mediaId: string }> {
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'pixel.png');
  const res = await fetch(`${system.baseUrl}/api/v1/media`, { method: 'POST', headers: auth(), body: form });
  expect(res.status).toBe(201);
  return (await res.json()) as { mediaId: string };
}

async function schedule(
  mediaId: string,
  caption: string,
  inMs: number,
): Promise<{ postId: string; storedUrl: string }> {
  const res = await fetch(`${system.baseUrl}/api/v1/posts`, {
    method: 'POST',
    headers: { ...auth(), 'content-type': 'application/json' },
    body: JSON.stringify({
      platforms: ['threads'],
      caption,
      mediaId,
      scheduledTime: new Date(Date.now() + inMs).toISOString(),
    }),
  });
  expect(res.status).toBe(201);
  const { postIds } = (await res.json()) as { postIds: string[] };
  const post = (await (await fetch(`${system.baseUrl}/api/v1/posts/${postIds[0]}`, { headers: auth() })).json()) as {
    mediaUrls: string[];
  };
  return { postId: postIds[0], storedUrl: post.mediaUrls[0] };
}

async function outcome(postId: string): Promise<{ status: string; failedReason: string | null }> {
  return waitFor(
    async () => {
      const post = (await (await fetch(`${system.baseUrl}/api/v1/posts/${postId}`, { headers: auth() })).json()) as {
        status: string;
        failedReason: string | null;
      };
      return post.status === 'scheduled' ? undefined : post;
    },
    { timeoutMs: 30_000, what: 'the post to be published or to fail' },
  );
}

describe('media links at publish time', () => {
  test('when the stored serve URL has expired by publish time, then the platform is handed a freshly signed serve URL', async () => {
    const { mediaId } = await upload();
    const caption = `fresh link ${Date.now()}`;
    const { postId, storedUrl } = await schedule(mediaId, caption, (URL_TTL_SECONDS + 2) * 1000);
    expect((await outcome(postId)).status).toBe('posted');
    expect((await fetch(storedUrl)).status).toBe(403); // the link stored at creation is no longer valid
    const published = (await (await fetch(`${system.sandboxUrl}/__sandbox/published?platform=threads`)).json()) as
      { items?: { text: string; mediaUrls: string[] }[] } | { text: string; mediaUrls: string[] }[];
    const items = Array.isArray(published) ? published : published.items!;
    const item = items.find((i) => i.text === caption)!;
    expect(item.mediaUrls[0]).not.toBe(storedUrl);
    expect(item.mediaUrls[0].startsWith(`${system.baseUrl}/files/${mediaId}`)).toBe(true);
  });

  test('when the media is deleted before publish time, then the post fails saying so', async () => {
    const { mediaId } = await upload();
    const { postId } = await schedule(mediaId, `deleted media ${Date.now()}`, 1500);
    const del = await fetch(`${system.baseUrl}/api/v1/media/${mediaId}`, { method: 'DELETE', headers: auth() });
    expect(del.status).toBe(200);
    const post = await outcome(postId);
    expect(post.status).toBe('failed');
    expect(post.failedReason).toMatch(/media .*deleted/i);
  });
});
