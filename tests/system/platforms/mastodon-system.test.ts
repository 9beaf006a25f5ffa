import { createTestEnv, FAST_PUBLISHER_ENV, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('pub_masto_sys');
  system = await startSystem(env, FAST_PUBLISHER_ENV);
  account = await system.seedAccount({ platforms: ['mastodon'] });
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

describe('Mastodon through the whole system', () => {
  test('when a post to Mastodon is published through the REST API, then it reaches posted with its permalink on the instance and the status carries its settings', async () => {
    const caption = `Hello Mastodon 🐘 https://example.com/launch ${Date.now()}`;
    const created = await call('/api/v1/publish', {
      platforms: ['mastodon'],
      caption,
      platformMeta: { mastodon: { spoilerText: 'launch', visibility: 'unlisted', language: 'en' } },
    });
    expect(created.status).toBe(201);
    const [postId] = created.body.postIds as string[];

    const post = await waitFor(
      async () => {
        const p = (await call(`/api/v1/posts/${postId}`)).body;
        return p.status === 'scheduled' ? undefined : p;
      },
      { timeoutMs: 20_000, what: 'the Mastodon post to leave scheduled' },
    );

    const [profile] = account.profiles;
    const username = profile.handle.split('@')[0];
    expect(post).toMatchObject({
      status: 'posted',
      failedReason: null,
      permalink: expect.stringMatching(new RegExp(`^https://mastodon\\.example/@${username}/\\d+$`)),
    });
    const published = (await (await fetch(`${system.sandboxUrl}/__sandbox/published?platform=mastodon`)).json()) as {
      text: string;
      permalink: string;
      details: Record<string, unknown>;
    }[];
    expect(published.filter((p) => p.text === caption)).toEqual([
      expect.objectContaining({
        permalink: post.permalink,
        details: expect.objectContaining({ spoilerText: 'launch', visibility: 'unlisted', language: 'en' }),
      }),
    ]);
  });

  test('when a Mastodon post is validated, then the length is counted the Mastodon way (a long link counts 23, the content warning counts) and a poll with media is a problem', async () => {
    const link = `https://example.com/${'a'.repeat(300)}`;
    const fits = await call('/api/v1/posts/validate', {
      platforms: ['mastodon'],
      caption: `${link} ${'x'.repeat(476)}`,
    });
    const tooLong = await call('/api/v1/posts/validate', {
      platforms: ['mastodon'],
      caption: `${link} ${'x'.repeat(470)}`,
      platformMeta: { mastodon: { spoilerText: 'seven!!' } },
    });
    const pollWithMedia = await call('/api/v1/posts/validate', {
      platforms: ['mastodon'],
      caption: 'Vote',
      mediaUrls: ['https://cdn.example.com/a.jpg'],
      platformMeta: { mastodon: { poll: { options: ['yes', 'no'], expiresIn: 3600 } } },
    });

    expect(fits.body).toEqual({ valid: true, problems: [] });
    expect(tooLong.body.problems).toEqual([
      expect.objectContaining({
        code: 'validation_error',
        platform: 'mastodon',
        field: 'caption',
        message: expect.stringContaining('got 501'),
      }),
    ]);
    expect(pollWithMedia.body.problems).toEqual([
      expect.objectContaining({ platform: 'mastodon', field: 'platformMeta.mastodon.poll' }),
    ]);
  });

  test('when a Mastodon post has neither text nor media, a poll repeats an option, or more alt texts than media, then each is a problem of its own field', async () => {
    const empty = await call('/api/v1/posts/validate', { platforms: ['mastodon'], caption: ' ' });
    const repeated = await call('/api/v1/posts/validate', {
      platforms: ['mastodon'],
      caption: 'Vote',
      platformMeta: { mastodon: { poll: { options: ['yes', 'yes'], expiresIn: 3600 } } },
    });
    const alts = await call('/api/v1/posts/validate', {
      platforms: ['mastodon'],
      caption: 'Pic',
      mediaUrls: ['https://cdn.example.com/a.jpg'],
      platformMeta: { mastodon: { altTexts: ['one', 'two'] } },
    });

    const fields = (r: { body: { problems: { platform?: string; field?: string }[] } }) =>
      r.body.problems.map((p) => [p.platform, p.field]);
    expect(fields(empty)).toContainEqual(['mastodon', 'caption']);
    expect(fields(repeated)).toEqual([['mastodon', 'platformMeta.mastodon.poll.options']]);
    expect(fields(alts)).toEqual([['mastodon', 'platformMeta.mastodon.altTexts']]);
  });
});
