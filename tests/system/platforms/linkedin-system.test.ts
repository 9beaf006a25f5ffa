import { createTestEnv, FAST_PUBLISHER_ENV, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;

beforeAll(async () => {
  env = await createTestEnv('sys_linkedin');
  system = await startSystem(env, FAST_PUBLISHER_ENV);
  account = await system.seedAccount({ platforms: ['linkedin'] });
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

describe('LinkedIn through the whole system', () => {
  test('when a post to LinkedIn is published through the REST API, then it reaches posted with its feed permalink and the commentary reads as written', async () => {
    const caption = `Hello LinkedIn (launch) #news ${Date.now()}`;
    const created = await call('/api/v1/publish', {
      platforms: ['linkedin'],
      caption,
      platformMeta: { linkedin: { visibility: 'PUBLIC', disableReshare: true } },
    });
    expect(created.status).toBe(201);
    const [postId] = created.body.postIds as string[];

    const post = await waitFor(
      async () => {
        const p = (await call(`/api/v1/posts/${postId}`)).body;
        return p.status === 'scheduled' ? undefined : p;
      },
      { timeoutMs: 20_000, what: 'the LinkedIn post to leave scheduled' },
    );

    expect(post).toMatchObject({
      status: 'posted',
      failedReason: null,
      permalink: expect.stringMatching(/^https:\/\/www\.linkedin\.com\/feed\/update\/urn:li:share:\d+\/$/),
    });
    const published = (await (await fetch(`${system.sandboxUrl}/__sandbox/published?platform=linkedin`)).json()) as {
      text: string;
      permalink: string;
      details: Record<string, unknown>;
    }[];
    expect(published.filter((p) => p.text === caption)).toEqual([
      expect.objectContaining({
        permalink: post.permalink,
        details: expect.objectContaining({
          author: expect.stringMatching(/^urn:li:person:\d+$/),
          commentary: caption.replace('(launch)', '\\(launch\\)'),
          isReshareDisabledByAuthor: true,
        }),
      }),
    ]);
  });

  test('when a LinkedIn post is validated, then 20 images fit, more are a problem, and so is a mix of kinds or more alt texts than media', async () => {
    const images = Array.from({ length: 21 }, (_, i) => `https://cdn.example.com/${i}.jpg`);
    const fits = await call('/api/v1/posts/validate', {
      platforms: ['linkedin'],
      caption: 'pics',
      mediaUrls: images.slice(1),
    });
    const alts = await call('/api/v1/posts/validate', {
      platforms: ['linkedin'],
      caption: 'pic',
      mediaUrls: images.slice(0, 1),
      platformMeta: { linkedin: { altTexts: ['one', 'two'] } },
    });
    const tooMany = await call('/api/v1/posts/validate', {
      platforms: ['linkedin'],
      caption: 'pics',
      mediaUrls: images,
    });
    const mixed = await call('/api/v1/posts/validate', {
      platforms: ['linkedin'],
      caption: 'mix',
      mediaUrls: ['https://cdn.example.com/a.mp4', 'https://cdn.example.com/b.jpg'],
    });

    expect(fits.body).toEqual({ valid: true, problems: [] });
    expect(alts.body.problems).toEqual([
      expect.objectContaining({ platform: 'linkedin', field: 'platformMeta.linkedin.altTexts' }),
    ]);
    expect(tooMany.body.valid).toBe(false);
    expect(mixed.body.problems).toEqual([expect.objectContaining({ platform: 'linkedin', field: 'mediaUrls' })]);
  });
});
