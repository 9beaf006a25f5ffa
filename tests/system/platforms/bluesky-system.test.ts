import { createTestEnv, FAST_PUBLISHER_ENV, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('pub_bsky_sys');
  system = await startSystem(env, FAST_PUBLISHER_ENV);
  account = await system.seedAccount({ platforms: ['bluesky'] });
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

describe('Bluesky through the whole system', () => {
  test('when a post to Bluesky is published through the REST API, then it reaches posted with its bsky.app permalink and the record is on the PDS', async () => {
    const caption = `Hello Bluesky 🦋 #postbus ${Date.now()}`;
    const created = await call('/api/v1/publish', {
      platforms: ['bluesky'],
      caption,
      platformMeta: { bluesky: { langs: ['en'] } },
    });
    expect(created.status).toBe(201);
    const [postId] = created.body.postIds as string[];

    const post = await waitFor(
      async () => {
        const p = (await call(`/api/v1/posts/${postId}`)).body;
        return p.status === 'scheduled' ? undefined : p;
      },
      { timeoutMs: 20_000, what: 'the Bluesky post to leave scheduled' },
    );

    const [profile] = account.profiles;
    expect(post).toMatchObject({
      status: 'posted',
      failedReason: null,
      permalink: expect.stringMatching(
        new RegExp(`^https://bsky\\.app/profile/${profile.handle.replace(/\./g, '\\.')}/post/[234567a-z]{13}$`),
      ),
    });
    const published = (await (await fetch(`${system.sandboxUrl}/__sandbox/published?platform=bluesky`)).json()) as {
      text: string;
      permalink: string;
      details: { langs: string[] };
    }[];
    expect(published.filter((p) => p.text === caption)).toEqual([
      expect.objectContaining({ permalink: post.permalink, details: expect.objectContaining({ langs: ['en'] }) }),
    ]);
  });

  test('when a Bluesky post with a first comment and a thread is published through the REST API, then the post shows each reply posted with its permalink', async () => {
    const created = await call('/api/v1/publish', {
      platforms: ['bluesky'],
      caption: `A thread ${Date.now()}`,
      firstComment: { bluesky: 'More below' },
      thread: ['Part two', 'Part three'],
    });
    expect(created.status).toBe(201);
    const [postId] = created.body.postIds as string[];

    const post = await waitFor(
      async () => {
        const p = (await call(`/api/v1/posts/${postId}`)).body;
        return p.thread?.every((part: { status: string }) => part.status !== 'pending') ? p : undefined;
      },
      { timeoutMs: 30_000, what: 'the Bluesky thread to settle' },
    );

    const permalink = expect.stringMatching(/^https:\/\/bsky\.app\/profile\/[^/]+\/post\/[234567a-z]{13}$/);
    expect(post).toMatchObject({
      status: 'posted',
      firstComment: { text: 'More below', status: 'posted', permalink },
      thread: [
        { text: 'Part two', status: 'posted', permalink, failedReason: null },
        { text: 'Part three', status: 'posted', permalink, failedReason: null },
      ],
    });
  });

  test('when a Bluesky post is validated, then a text over 300 graphemes and more alt texts than media are problems, while 300 emoji with modifiers pass', async () => {
    const tooLong = await call('/api/v1/posts/validate', {
      platforms: ['bluesky'],
      caption: '👍🏽'.repeat(301),
      platformMeta: { bluesky: { altTexts: ['a', 'b'] } },
      mediaUrls: ['https://cdn.example.com/a.jpg'],
    });
    const fits = await call('/api/v1/posts/validate', { platforms: ['bluesky'], caption: '👍🏽'.repeat(300) });

    expect(tooLong.body.valid).toBe(false);
    expect(
      tooLong.body.problems.map((p: { code: string; platform?: string; field?: string }) => [
        p.code,
        p.platform,
        p.field,
      ]),
    ).toEqual([
      ['validation_error', 'bluesky', 'caption'],
      ['validation_error', 'bluesky', 'platformMeta.bluesky.altTexts'],
    ]);
    expect(tooLong.body.problems[0].message).toMatch(/at most 300 characters \(graphemes; got 301\)/);
    expect(fits.body).toEqual({ valid: true, problems: [] });
  });
});
