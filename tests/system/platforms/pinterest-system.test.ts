import { createTestEnv, FAST_PUBLISHER_ENV, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let boardId: string;

beforeAll(async () => {
  env = await createTestEnv('pub_pin_sys');
  system = await startSystem(env, FAST_PUBLISHER_ENV);
  account = await system.seedAccount({ platforms: ['pinterest'] });
  const board = await fetch(`${system.sandboxUrl}/__sandbox/pinterest/boards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ handle: account.profiles[0].handle, name: 'Launch' }),
  });
  boardId = ((await board.json()) as { id: string }).id;
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

describe('Pinterest through the whole system', () => {
  test("when the profile's boards are listed and an image pin is published to one through the REST API, then the post reaches posted with the pin's permalink", async () => {
    const [profile] = account.profiles;
    const boards = await call(`/api/v1/connections/${profile.id}/pinterest/boards`);
    expect(boards).toEqual({
      status: 200,
      body: { profileId: profile.id, boards: [{ id: boardId, name: 'Launch', description: '', privacy: 'PUBLIC' }] },
    });

    const caption = `Spring launch ${Date.now()}`;
    const created = await call('/api/v1/publish', {
      platforms: ['pinterest'],
      caption,
      mediaUrls: ['https://cdn.example.com/launch.jpg'],
      platformMeta: {
        pinterest: { boardId, title: 'Launch', link: 'https://example.com/launch', altText: 'A poster' },
      },
    });
    expect(created.status).toBe(201);
    const [postId] = created.body.postIds as string[];
    const post = await waitFor(
      async () => {
        const p = (await call(`/api/v1/posts/${postId}`)).body;
        return p.status === 'scheduled' ? undefined : p;
      },
      { timeoutMs: 20_000, what: 'the Pinterest post to leave scheduled' },
    );
    expect(post).toMatchObject({
      status: 'posted',
      failedReason: null,
      permalink: expect.stringMatching(/^https:\/\/www\.pinterest\.com\/pin\/\d+\/$/),
    });
    const published = (await (await fetch(`${system.sandboxUrl}/__sandbox/published?platform=pinterest`)).json()) as {
      text: string;
      permalink: string;
      details: Record<string, unknown>;
    }[];
    expect(published.filter((p) => p.text === caption)).toEqual([
      expect.objectContaining({
        permalink: post.permalink,
        details: expect.objectContaining({ boardId, link: 'https://example.com/launch', altText: 'A poster' }),
      }),
    ]);
  });

  test('when a Pinterest post names no board or its description is over 800 characters, then validate answers missing_board and a caption problem', async () => {
    const noBoard = await call('/api/v1/posts/validate', {
      platforms: ['pinterest'],
      caption: 'x'.repeat(801),
      mediaUrls: ['https://cdn.example.com/a.jpg'],
    });
    expect(noBoard.body.valid).toBe(false);
    expect(noBoard.body.problems).toEqual([
      expect.objectContaining({
        code: 'missing_board',
        platform: 'pinterest',
        field: 'platformMeta.pinterest.boardId',
      }),
      expect.objectContaining({ code: 'validation_error', platform: 'pinterest', field: 'caption' }),
    ]);
    const ok = await call('/api/v1/posts/validate', {
      platforms: ['pinterest'],
      caption: 'fine',
      mediaUrls: ['https://cdn.example.com/a.jpg'],
      platformMeta: { pinterest: { boardId } },
    });
    expect(ok.body).toEqual({ valid: true, problems: [] });
  });
});
