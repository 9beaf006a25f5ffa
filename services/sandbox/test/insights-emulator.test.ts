import type { Platform } from '@postbus/contracts';
import {
  getFacebookEngagement,
  getInstagramEngagement,
  getThreadsEngagement,
  getTikTokEngagement,
  getYouTubeEngagement,
  isPlatformError,
  publishFacebookFeed,
  type PlatformEngagement,
  type PlatformError,
} from '@postbus/platforms';
import { startSandbox, type RunningSandbox } from '../src/main';
import { control } from './sandbox-client';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox?.close();
});

interface User {
  userId: string;
  accessToken: string;
  handle: string;
}

async function aUser(platform: Platform, handle: string): Promise<User> {
  const { status, body } = await control(sandbox, 'POST', '/users', { platform, handle });
  expect(status).toBe(201);
  return body;
}

let counter = 0;
/** An item that went live on the emulated platform, as its publishing routes record it. */
function published(platform: Platform, user: User, id = `${Date.now()}${++counter}`): string {
  sandbox.state.published.record({
    platform,
    id,
    userId: user.userId,
    handle: user.handle,
    text: 'hello',
    mediaUrls: [],
    mediaType: 'TEXT',
    containerId: null,
    permalink: `https://example.com/${platform}/${id}`,
    createdAt: new Date().toISOString(),
  });
  return id;
}

async function reported(platform: Platform, id: string): Promise<PlatformEngagement> {
  const { body } = await control(sandbox, 'GET', `/insights?platform=${platform}`);
  const item = body.find((f: { id: string }) => f.id === id);
  return { views: item.views, likes: item.likes, comments: item.comments, shares: item.shares };
}

const api = (path: string, accessToken: string) => ({ baseUrl: `${sandbox.url}${path}`, accessToken });
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (err: unknown) => err as PlatformError,
  );

describe("each platform's insights endpoint and client", () => {
  test('when a Threads or Instagram post is published, then /{id}/insights reports the figures the sandbox keeps', async () => {
    const threads = await aUser('threads', 'insights_threads');
    const instagram = await aUser('instagram', 'insights_insta');
    const t = published('threads', threads);
    const i = published('instagram', instagram);

    const fromThreads = await getThreadsEngagement(api('/threads/v1.0', threads.accessToken), t);
    const fromInstagram = await getInstagramEngagement(api('/instagram/v21.0', instagram.accessToken), i);

    expect(fromThreads).toEqual(await reported('threads', t));
    expect(fromInstagram).toEqual(await reported('instagram', i));
    expect(fromThreads.views).toBeGreaterThanOrEqual(100);
    expect(fromThreads.shares).not.toBeNull();
  });

  test('when a Facebook post and a Facebook video are published, then the post reports shares and the video reports none', async () => {
    const page = await aUser('facebook', 'insights_page');
    const fb = { ...api('/facebook/v21.0', page.accessToken), pageId: page.userId };
    const { platformPostId, permalink } = await publishFacebookFeed(fb, { message: 'a real feed post' });
    const video = published('facebook', page, `${Date.now()}77`);

    const post = await getFacebookEngagement(fb, platformPostId);
    const reel = await getFacebookEngagement(fb, video);

    // Reading the post's permalink still reaches the Graph emulator behind the insights routes.
    expect(permalink).toMatch(/^https:\/\/www\.facebook\.com\//);
    expect(post).toEqual(await reported('facebook', platformPostId));
    expect(post.shares).toEqual(expect.any(Number));
    expect(reel).toEqual(await reported('facebook', video));
    expect(reel.shares).toBeNull();
  });

  test('when a TikTok or YouTube video is published, then video.query and videos.list report its counts; YouTube reports no shares', async () => {
    const creator = await aUser('tiktok', 'insights_tiktok');
    const channel = await aUser('youtube', 'insights_channel');
    const clip = published('tiktok', creator);
    const film = published('youtube', channel, `yt${Date.now()}`);

    const fromTikTok = await getTikTokEngagement(api('/tiktok', creator.accessToken), clip);
    const fromYouTube = await getYouTubeEngagement(
      { apiUrl: `${sandbox.url}/youtube/v3`, accessToken: channel.accessToken },
      film,
    );

    expect(fromTikTok).toEqual(await reported('tiktok', clip));
    expect(fromYouTube).toEqual(await reported('youtube', film));
    expect(fromYouTube.shares).toBeNull();
  });

  test("when a test sets an item's figures, then the platform reports them from then on", async () => {
    const threads = await aUser('threads', 'insights_set');
    const id = published('threads', threads);
    const { status, body } = await control(sandbox, 'POST', '/insights', {
      platform: 'threads',
      id,
      views: 4321,
      likes: 21,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ id, views: 4321, likes: 21 });
    expect(await getThreadsEngagement(api('/threads/v1.0', threads.accessToken), id)).toMatchObject({
      views: 4321,
      likes: 21,
    });
    expect((await control(sandbox, 'POST', '/insights', { platform: 'threads', id: 'nope', views: 1 })).status).toBe(
      404,
    );
  });

  test('when the same id is asked for twice, then the figures are the same (deterministic)', async () => {
    const ig = await aUser('instagram', 'insights_same');
    const id = published('instagram', ig);
    const options = api('/instagram/v21.0', ig.accessToken);
    expect(await getInstagramEngagement(options, id)).toEqual(await getInstagramEngagement(options, id));
  });
});

describe('insights errors', () => {
  test("when another user's item is asked for, then the platform answers not found: a definitive error", async () => {
    const owner = await aUser('threads', 'insights_owner');
    const stranger = await aUser('threads', 'insights_stranger');
    const id = published('threads', owner);
    const err = await failure(getThreadsEngagement(api('/threads/v1.0', stranger.accessToken), id));
    expect(isPlatformError(err)).toBe(true);
    expect(err).toMatchObject({ platform: 'threads', transient: false, code: 100 });
  });

  test('when the token is not valid, then the error says the token was refused', async () => {
    const err = await failure(getInstagramEngagement(api('/instagram/v21.0', 'not-a-token'), '123'));
    expect(err).toMatchObject({ platform: 'instagram', transient: false, tokenRejected: true });
  });

  test('when a TikTok or YouTube video is not listed, then the error is definitive and says so', async () => {
    const creator = await aUser('tiktok', 'insights_gone');
    const channel = await aUser('youtube', 'insights_gone_yt');
    const tiktok = await failure(getTikTokEngagement(api('/tiktok', creator.accessToken), '7000000000000000000'));
    const youtube = await failure(
      getYouTubeEngagement({ apiUrl: `${sandbox.url}/youtube/v3`, accessToken: channel.accessToken }, 'missing'),
    );
    for (const err of [tiktok, youtube])
      expect(err).toMatchObject({ transient: false, code: 'not_listed', message: expect.stringMatching(/not listed/) });
  });

  test('when Instagram is asked for a metric it does not have, then code 100', async () => {
    const ig = await aUser('instagram', 'insights_metric');
    const id = published('instagram', ig);
    const res = await fetch(`${sandbox.url}/instagram/v21.0/${id}/insights?metric=impressions_forever`, {
      headers: { authorization: `Bearer ${ig.accessToken}` },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(100);
  });
});
