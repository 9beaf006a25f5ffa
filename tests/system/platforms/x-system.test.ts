import { createTestEnv, FAST_PUBLISHER_ENV, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('sys_x');
  system = await startSystem(env, FAST_PUBLISHER_ENV);
  account = await system.seedAccount({ platforms: ['x'] });
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
});

async function call(path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${system.baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const settled = (postId: string) =>
  waitFor(
    async () => {
      const p = (await call(`/api/v1/posts/${postId}`)).body;
      return p.status === 'scheduled' || p.thread?.some((t: { status: string }) => t.status === 'pending')
        ? undefined
        : p;
    },
    { timeoutMs: 20_000, what: 'the X post to settle' },
  );

describe('X through the whole system', () => {
  test('when a post with a reply chain is published through the REST API, then it reaches posted with its x.com permalink and each part answers the one before', async () => {
    const caption = `Hello X 🚀 https://example.com/launch ${Date.now()}`;
    const created = await call('/api/v1/publish', { platforms: ['x'], caption, thread: ['second part', 'third part'] });
    expect(created.status).toBe(201);
    const [postId] = created.body.postIds as string[];

    const post = await settled(postId);

    const [profile] = account.profiles;
    expect(post).toMatchObject({
      status: 'posted',
      failedReason: null,
      permalink: expect.stringMatching(new RegExp(`^https://x\\.com/${profile.handle}/status/\\d+$`)),
    });
    const published = (await (await fetch(`${system.sandboxUrl}/__sandbox/published?platform=x`)).json()) as {
      id: string;
      text: string;
      permalink: string;
      details: { inReplyTo: string | null };
    }[];
    const root = published.find((p) => p.text === caption)!;
    const second = published.find((p) => p.text === 'second part')!;
    const third = published.find((p) => p.text === 'third part')!;
    expect(root.permalink).toBe(post.permalink);
    expect([second.details.inReplyTo, third.details.inReplyTo]).toEqual([root.id, second.id]);
    expect(post.thread).toEqual([
      { text: 'second part', status: 'posted', permalink: second.permalink, failedReason: null },
      { text: 'third part', status: 'posted', permalink: third.permalink, failedReason: null },
    ]);
  });

  test('when an X post is validated, then X weighs the text (a long link 23, CJK 2) and each part of the chain is checked too', async () => {
    const link = `https://example.com/${'a'.repeat(300)}`;
    const fits = await call('/api/v1/posts/validate', { platforms: ['x'], caption: `${link} ${'x'.repeat(256)}` });
    const tooLong = await call('/api/v1/posts/validate', { platforms: ['x'], caption: '漢'.repeat(141) });
    const longPart = await call('/api/v1/posts/validate', {
      platforms: ['x'],
      caption: 'ok',
      thread: ['y'.repeat(281)],
    });

    expect(fits.body).toEqual({ valid: true, problems: [] });
    expect(tooLong.body.problems).toEqual([
      expect.objectContaining({ platform: 'x', field: 'caption', message: expect.stringContaining('got 282') }),
    ]);
    expect(longPart.body.problems).toEqual([expect.objectContaining({ platform: 'x', field: 'thread[0]' })]);
  });
});
