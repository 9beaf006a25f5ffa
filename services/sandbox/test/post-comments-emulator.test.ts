import { startSandbox, type RunningSandbox } from '../src/main';
import { call, newUser } from './emulator-client';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelayMs: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

const ig = (path: string) => `${sandbox.url}/instagram/v21.0${path}`;
const fb = (path: string) => `${sandbox.url}/facebook/v21.0${path}`;
const th = (path: string) => `${sandbox.url}/threads/v1.0${path}`;
const yt = (path: string) => `${sandbox.url}/youtube/v3${path}`;
const graphMessage = (body: any) => String(body?.error?.message ?? '');

async function instagramMedia(
  user: { userId: string; accessToken: string },
  extra: Record<string, string> = {},
): Promise<string> {
  const container = await call(ig(`/${user.userId}/media`), {
    token: user.accessToken,
    form: { image_url: 'https://cdn.example.com/a.jpg', ...extra },
  });
  const published = await call(ig(`/${user.userId}/media_publish`), {
    token: user.accessToken,
    form: { creation_id: container.body.id },
  });
  return published.body.id;
}

async function threadsPost(
  user: { userId: string; accessToken: string },
  text: string,
  replyTo?: string,
): Promise<{ status: number; id?: string; body: any }> {
  const container = await call(th(`/${user.userId}/threads`), {
    token: user.accessToken,
    form: { media_type: 'TEXT', text, ...(replyTo && { reply_to_id: replyTo }) },
  });
  if (container.status !== 200) return { status: container.status, body: container.body };
  const published = await call(th(`/${user.userId}/threads_publish`), {
    token: user.accessToken,
    form: { creation_id: container.body.id },
  });
  return { status: published.status, id: published.body.id, body: published.body };
}

describe("comments on an account's own posts", () => {
  test("when Instagram is asked to comment on the account's media, then it stores the comment and lists it; no message, too long, a story or another account's media are refused", async () => {
    const user = await newUser(sandbox, 'instagram', 'ig_commenter');
    const other = await newUser(sandbox, 'instagram', 'ig_other');
    const mediaId = await instagramMedia(user);

    const ok = await call(ig(`/${mediaId}/comments`), { token: user.accessToken, form: { message: 'first!' } });
    expect(ok).toMatchObject({ status: 200, body: { id: expect.stringMatching(/^\d+$/) } });
    const listed = await call(ig(`/${mediaId}/comments?fields=id,text,username`), { token: user.accessToken });
    expect(listed.body.data).toEqual([{ id: ok.body.id, text: 'first!', username: 'ig_commenter' }]);

    expect((await call(ig(`/${mediaId}/comments`), { token: user.accessToken, form: {} })).status).toBe(400);
    const long = await call(ig(`/${mediaId}/comments`), {
      token: user.accessToken,
      form: { message: 'x'.repeat(2201) },
    });
    expect([long.status, graphMessage(long.body)]).toEqual([
      400,
      '(#100) Param message must be at most 2200 characters long.',
    ]);
    expect(
      (await call(ig(`/${mediaId}/comments`), { token: other.accessToken, form: { message: 'not mine' } })).status,
    ).toBe(400);
    const story = await instagramMedia(user, { media_type: 'STORIES' });
    expect(
      graphMessage((await call(ig(`/${story}/comments`), { token: user.accessToken, form: { message: 'hi' } })).body),
    ).toMatch(/stories take no comments/);
    expect(sandbox.state.comments.postComments.filter((c) => c.accountId === user.userId)).toHaveLength(1);
  });

  test('when a Facebook Page comments on its own post, then the comment is stored with the Page as author; a message over 8000 characters is refused', async () => {
    const page = await newUser(sandbox, 'facebook', 'fb_page');
    const post = await call(fb(`/${page.userId}/feed`), { token: page.accessToken, form: { message: 'news' } });

    const ok = await call(fb(`/${post.body.id}/comments`), {
      token: page.accessToken,
      form: { message: 'details below' },
    });
    expect(ok).toMatchObject({ status: 200, body: { id: expect.stringMatching(/^\d+_\d+$/) } });
    const listed = await call(fb(`/${post.body.id}/comments?fields=id,message,from`), { token: page.accessToken });
    expect(listed.body.data).toEqual([
      { id: ok.body.id, message: 'details below', from: { id: page.userId, name: 'fb_page' } },
    ]);
    const long = await call(fb(`/${post.body.id}/comments`), {
      token: page.accessToken,
      form: { message: 'x'.repeat(8001) },
    });
    expect(long.status).toBe(400);
  });

  test("when a Threads reply names reply_to_id, then it must be a published post or reply under the user's own root post, and the replies edge lists it", async () => {
    const user = await newUser(sandbox, 'threads', 'th_author');
    const stranger = await newUser(sandbox, 'threads', 'th_stranger');
    const root = await threadsPost(user, 'root');
    const first = await threadsPost(user, 'reply one', root.id);
    const second = await threadsPost(user, 'reply two', first.id);
    expect([first.status, second.status]).toEqual([200, 200]);

    const listed = await call(th(`/${root.id}/replies?fields=id,text,username`), { token: user.accessToken });
    expect(listed.body.data).toEqual([{ id: first.id, text: 'reply one', username: 'th_author' }]);
    const unknown = await threadsPost(user, 'to nothing', '999999999999');
    expect([unknown.status, graphMessage(unknown.body)]).toEqual([400, expect.stringContaining('reply_to_id')]);
    const foreign = await threadsPost(stranger, 'not my thread', second.id);
    expect(foreign.status).toBe(400);
    expect(
      sandbox.state.comments.postComments.filter((c) => c.accountId === user.userId).map((c) => [c.text, c.postId]),
    ).toEqual([
      ['reply one', root.id],
      ['reply two', first.id],
    ]);
  });

  test('when YouTube is asked for a top-level comment, then it needs snippet.channelId, videoId and textOriginal, at most 10,000 characters, and a grant with youtube.force-ssl', async () => {
    const channel = await newUser(sandbox, 'youtube', 'yt_channel');
    const videoId = 'vid_sandbox_1';
    sandbox.state.youtube.videos.set(videoId, {
      id: videoId,
      userId: channel.userId,
      resource: { status: {} },
      published: {
        platform: 'youtube',
        id: videoId,
        userId: channel.userId,
        handle: channel.handle,
        text: '',
        mediaUrls: [],
        mediaType: 'VIDEO',
        containerId: null,
        permalink: '',
        createdAt: new Date().toISOString(),
      },
    });
    const body = (text: string, vid = videoId) => ({
      snippet: { channelId: channel.userId, videoId: vid, topLevelComment: { snippet: { textOriginal: text } } },
    });

    const ok = await call(yt('/commentThreads?part=snippet'), { token: channel.accessToken, json: body('hello') });
    expect(ok).toMatchObject({
      status: 200,
      body: {
        kind: 'youtube#commentThread',
        snippet: {
          videoId,
          topLevelComment: { snippet: { textOriginal: 'hello', authorChannelId: { value: channel.userId } } },
        },
      },
    });
    const listed = await call(yt(`/commentThreads?part=snippet&videoId=${videoId}`), { token: channel.accessToken });
    expect(listed.body.items.map((i: any) => i.id)).toEqual([ok.body.id]);

    const long = await call(yt('/commentThreads?part=snippet'), {
      token: channel.accessToken,
      json: body('x'.repeat(10_001)),
    });
    expect([long.status, long.body.error.errors[0].reason]).toEqual([400, 'commentTextTooLong']);
    const missing = await call(yt('/commentThreads?part=snippet'), {
      token: channel.accessToken,
      json: body('hi', 'nope'),
    });
    expect([missing.status, missing.body.error.errors[0].reason]).toEqual([404, 'videoNotFound']);

    sandbox.state.oauth.refreshTokens.set('grant_1', {
      token: 'grant_1',
      platform: 'youtube',
      clientId: 'c',
      userId: channel.userId,
      expiresAt: null,
      active: true,
      scopes: ['https://www.googleapis.com/auth/youtube.upload'],
    });
    const narrowed = await call(yt('/commentThreads?part=snippet'), {
      token: channel.accessToken,
      json: body('no scope'),
    });
    expect([narrowed.status, narrowed.body.error.errors[0].reason]).toEqual([403, 'insufficientPermissions']);
    expect(sandbox.state.comments.postComments.filter((c) => c.platform === 'youtube').map((c) => c.text)).toEqual([
      'hello',
    ]);
  });
});
