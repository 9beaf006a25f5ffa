import { startSandbox, type RunningSandbox } from '../src/main';
import { aThreadsAccount, control, graph, type ThreadsAccount } from './sandbox-client';

/** The emulator's own wire behaviour, checked with raw HTTP and a clock the test moves. */

const HOUR = 3_600_000;
let clock = Date.parse('2026-01-01T12:00:00Z');
let sandbox: RunningSandbox;
let account: ThreadsAccount;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelayMs: 1000, now: () => clock, threads: { quotaTotal: 2 } });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await control(sandbox, 'POST', '/reset');
  account = await aThreadsAccount(sandbox, 'grace');
});

async function finishedTextContainer(text = 'hi'): Promise<string> {
  const { body } = await graph(account, 'POST', `/${account.userId}/threads`, { media_type: 'TEXT', text });
  clock += 1000;
  return body.id;
}

describe('Threads containers', () => {
  test('when a container is created, then it is IN_PROGRESS until the processing delay has passed, then FINISHED', async () => {
    const created = await graph(account, 'POST', `/${account.userId}/threads`, { media_type: 'TEXT', text: 'hello' });
    expect(created).toEqual({ status: 200, body: { id: expect.stringMatching(/^\d+$/) } });

    const early = await graph(account, 'GET', `/${created.body.id}?fields=status,error_message`);
    clock += 999;
    const stillEarly = await graph(account, 'GET', `/${created.body.id}?fields=status,error_message`);
    clock += 1;
    const done = await graph(account, 'GET', `/${created.body.id}?fields=status,error_message`);

    expect(early.body).toEqual({ id: created.body.id, status: 'IN_PROGRESS' });
    expect(stillEarly.body.status).toBe('IN_PROGRESS');
    expect(done.body).toEqual({ id: created.body.id, status: 'FINISHED' });
  });

  test('when media fails processing, then the status is ERROR with FAILED_DOWNLOADING_VIDEO', async () => {
    const { body } = await graph(account, 'POST', '/me/threads', {
      media_type: 'VIDEO',
      video_url: 'https://x.example/fail-processing.mp4',
    });
    clock += 1000;

    const status = await graph(account, 'GET', `/${body.id}?fields=status,error_message`);

    expect(status.body).toEqual({ id: body.id, status: 'ERROR', error_message: 'FAILED_DOWNLOADING_VIDEO' });
  });

  test('when a container is not published within 24 hours, then it is EXPIRED and cannot be published', async () => {
    const id = await finishedTextContainer();
    clock += 24 * HOUR;

    const status = await graph(account, 'GET', `/${id}?fields=status`);
    const publish = await graph(account, 'POST', `/${account.userId}/threads_publish?creation_id=${id}`);

    expect(status.body.status).toBe('EXPIRED');
    expect(publish.status).toBe(400);
    expect(publish.body.error).toMatchObject({ code: 100, type: 'OAuthException' });
  });

  test.each([
    [{ text: 'no type' }, /media_type is required/],
    [{ media_type: 'GIF', text: 'x' }, /media_type must be one of/],
    [{ media_type: 'TEXT' }, /text is required/],
    [{ media_type: 'IMAGE' }, /image_url is required/],
    [{ media_type: 'VIDEO', video_url: 'not a url' }, /video_url must be a valid URL/],
    [{ media_type: 'IMAGE', image_url: 'ftp://x.example/a.jpg' }, /http or https/],
    [{ media_type: 'CAROUSEL', children: '1' }, /between 2 and 20/],
    [{ media_type: 'TEXT', text: 'x'.repeat(501) }, /at most 500 characters/],
    [
      { media_type: 'TEXT', text: Array.from({ length: 6 }, (_, i) => `https://l${i}.example`).join(' ') },
      /THREADS_API__LINK_LIMIT_EXCEEDED/,
    ],
  ])('when a container is created with %j, then Threads answers code 100', async (form, message) => {
    const { status, body } = await graph(account, 'POST', `/${account.userId}/threads`, form);

    expect(status).toBe(400);
    expect(body.error.code).toBe(100);
    expect(body.error.message).toMatch(message);
    expect(body.error.fbtrace_id).toEqual(expect.any(String));
  });

  test('when a carousel lists a container that is not a carousel item, then it is refused', async () => {
    const a = await graph(account, 'POST', '/me/threads', {
      media_type: 'IMAGE',
      image_url: 'https://x.example/a.jpg',
      is_carousel_item: 'true',
    });
    const b = await graph(account, 'POST', '/me/threads', {
      media_type: 'IMAGE',
      image_url: 'https://x.example/b.jpg',
    });

    const parent = await graph(account, 'POST', '/me/threads', {
      media_type: 'CAROUSEL',
      children: `${a.body.id},${b.body.id}`,
    });

    expect(parent.status).toBe(400);
    expect(parent.body.error.message).toMatch(/is_carousel_item/);
  });
});

describe('Threads publishing', () => {
  test('when a container is still IN_PROGRESS, then threads_publish answers Media Not Found (24/4279009)', async () => {
    const { body } = await graph(account, 'POST', `/${account.userId}/threads`, {
      media_type: 'TEXT',
      text: 'too soon',
    });

    const publish = await graph(account, 'POST', `/${account.userId}/threads_publish?creation_id=${body.id}`);

    expect(publish.status).toBe(400);
    expect(publish.body.error).toMatchObject({ code: 24, error_subcode: 4279009, error_user_title: 'Media Not Found' });
    expect(await control(sandbox, 'GET', '/published?platform=threads')).toMatchObject({ body: [] });
  });

  test('when a post is published, then the media answers its permalink and the container says PUBLISHED', async () => {
    const id = await finishedTextContainer('live');

    const publish = await graph(account, 'POST', `/${account.userId}/threads_publish?creation_id=${id}`);
    const media = await graph(account, 'GET', `/${publish.body.id}?fields=id,permalink`);
    const container = await graph(account, 'GET', `/${id}?fields=status`);

    expect(media.body).toEqual({
      id: publish.body.id,
      permalink: expect.stringMatching(/^https:\/\/www\.threads\.net\/@grace\/post\/[\w-]{11}$/),
    });
    expect(container.body.status).toBe('PUBLISHED');
  });

  test('when the user has published the quota in 24 hours, then the next publish is refused until the window moves on', async () => {
    for (const text of ['one', 'two']) {
      const id = await finishedTextContainer(text);
      expect((await graph(account, 'POST', `/${account.userId}/threads_publish?creation_id=${id}`)).status).toBe(200);
    }
    const third = await finishedTextContainer('three');

    const refused = await graph(account, 'POST', `/${account.userId}/threads_publish?creation_id=${third}`);
    const limit = await graph(account, 'GET', `/${account.userId}/threads_publishing_limit?fields=quota_usage,config`);

    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe(9);
    expect(limit.body).toEqual({ data: [{ quota_usage: 2, config: { quota_total: 2, quota_duration: 86400 } }] });

    clock += 24 * HOUR - 1500; // the first post has left the rolling window; the third container has not expired yet
    const later = await graph(account, 'POST', `/${account.userId}/threads_publish?creation_id=${third}`);
    expect(later.status).toBe(200);
  });

  test("when another user's container is published or read, then Graph says it does not exist", async () => {
    const id = await finishedTextContainer();
    const other = await aThreadsAccount(sandbox, 'mallory');

    const read = await graph(other, 'GET', `/${id}?fields=status`);
    const publish = await graph(other, 'POST', `/${other.userId}/threads_publish?creation_id=${id}`);
    const wrongPath = await graph(other, 'POST', `/${account.userId}/threads`, { media_type: 'TEXT', text: 'x' });

    expect(read.body.error).toMatchObject({ code: 100, error_subcode: 33 });
    expect(publish.body.error).toMatchObject({ code: 24, error_subcode: 4279009 });
    expect(wrongPath.body.error).toMatchObject({ code: 100, error_subcode: 33 });
  });
});

describe('Threads authentication', () => {
  test('when no token is sent, then Graph answers 2500', async () => {
    const res = await fetch(`${account.baseUrl}/me?fields=id`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(2500);
  });

  test('when the token comes as access_token, then it is accepted like a Bearer header', async () => {
    const res = await fetch(`${account.baseUrl}/me?fields=id,username&access_token=${account.accessToken}`);
    expect(await res.json()).toEqual({ id: account.userId, username: 'grace' });
  });

  test("when another platform's token is used, then Threads answers 190 with HTTP 401", async () => {
    const { body } = await control(sandbox, 'POST', '/users', { platform: 'instagram', handle: 'grace' });

    const res = await graph(account, 'GET', '/me', undefined, body.accessToken);

    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: 190, type: 'OAuthException' });
  });
});
