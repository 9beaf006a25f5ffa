import { IMAGE_HEADS, bodiesOf, calls, lastRequestSeq, startMediaServer, type MediaServer } from '@postbus/testing';
import {
  publishedOn,
  sandboxControl,
  startPublisherHarness,
  type PublisherHarness,
  type SandboxProfile,
} from './support/harness';

let h: PublisherHarness;
let media: MediaServer;

beforeAll(async () => {
  h = await startPublisherHarness('pub_facebook', {
    sandbox: { processingDelayMs: 1500 },
    env: { PLATFORM_REQUEST_TIMEOUT_MS: '1500' },
  });
  media = await startMediaServer();
});
afterAll(async () => {
  await h?.stop();
  await media?.close();
});

async function publishOne(page: SandboxProfile, fields: Parameters<PublisherHarness['due']>[1]) {
  const since = lastRequestSeq(h.sandbox);
  const job = h.due(page, fields);
  await h.publish(job);
  const outcome = await h.outcome(job.postId);
  return { job, outcome, ...(await calls(h.sandbox, 'facebook', page.userId, since)) };
}

describe('publishing to a Facebook Page', () => {
  test('when a text post with a link is due, then one feed post carries the message and the link', async () => {
    const page = await h.profile('facebook');
    const caption = 'Read this: https://example.com/article?id=1 today';

    const { outcome, lines, requests } = await publishOne(page, { caption });

    expect(outcome).toMatchObject({
      name: 'post.published',
      data: { permalink: expect.stringMatching(/^https:\/\/www\.facebook\.com\/\d+\/posts\/\d+$/) },
    });
    expect(lines).toEqual(['POST /facebook/v26.0/{user}/feed', 'GET /facebook/v26.0/{id}?fields=permalink_url']);
    expect(bodiesOf(requests, 'POST', '/feed')).toEqual([
      { message: caption, link: 'https://example.com/article?id=1' },
    ]);
    const [item] = (await publishedOn(h.sandbox, 'facebook')).filter((p) => p.userId === page.userId);
    expect(item).toMatchObject({ mediaType: 'LINK', text: caption, id: outcome.data.platformPostId });
  });

  test('when one photo is due, then it is published through /photos with its caption', async () => {
    const page = await h.profile('facebook');
    const photo = media.link('p.jpg', 100);

    const { outcome, lines, requests } = await publishOne(page, { caption: 'A photo', mediaUrls: [photo] });

    expect(outcome.name).toBe('post.published');
    expect(lines).toEqual(['POST /facebook/v26.0/{user}/photos', 'GET /facebook/v26.0/{id}?fields=permalink_url']);
    expect(bodiesOf(requests, 'POST', '/photos')).toEqual([{ url: photo, caption: 'A photo' }]);
  });

  test('when several photos are due, then each is uploaded unpublished and one feed post attaches them', async () => {
    const page = await h.profile('facebook');
    const photos = [media.link('1.jpg', 10), media.link('2.png', 10)];

    const { outcome, requests } = await publishOne(page, { caption: 'Album', mediaUrls: photos });

    expect(outcome.name).toBe('post.published');
    expect(bodiesOf(requests, 'POST', '/photos')).toEqual(photos.map((url) => ({ url, published: 'false' })));
    const [feed] = bodiesOf(requests, 'POST', '/feed');
    expect(feed).toEqual({
      message: 'Album',
      'attached_media[0]': expect.stringMatching(/^\{"media_fbid":"\d+"\}$/),
      'attached_media[1]': expect.stringMatching(/^\{"media_fbid":"\d+"\}$/),
    });
    const items = (await publishedOn(h.sandbox, 'facebook')).filter((p) => p.userId === page.userId);
    expect(items).toEqual([expect.objectContaining({ mediaType: 'ALBUM', mediaUrls: photos })]);
  });

  test('when a video is due, then graph.facebook.com (graph-video is retired) receives file_url, description and title', async () => {
    const page = await h.profile('facebook');
    const video = media.link('v.mp4', 100);

    const { outcome, lines, requests } = await publishOne(page, {
      caption: 'Watch',
      title: 'Our video',
      mediaUrls: [video],
    });

    expect(outcome.name).toBe('post.published');
    expect(lines[0]).toBe('POST /facebook/v26.0/{user}/videos');
    expect(bodiesOf(requests, 'POST', '/videos')).toEqual([
      { file_url: video, description: 'Watch', title: 'Our video' },
    ]);
  });

  test('when a video with a cover is due, then the call is multipart and carries the cover as thumb beside file_url, description and title', async () => {
    const page = await h.profile('facebook');
    const video = media.link('covered.mp4', 100);
    const cover = media.link('cover.jpg', 5000, { head: IMAGE_HEADS.jpeg });

    const { outcome, requests } = await publishOne(page, {
      caption: 'Watch',
      title: 'With a cover',
      mediaUrls: [video],
      platformMeta: { facebook: { coverUrl: cover } },
    });

    expect(outcome.name).toBe('post.published');
    const call = requests.find((r) => r.method === 'POST' && r.path.endsWith('/videos'))!;
    expect(call.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(call.body).toEqual({ file_url: video, description: 'Watch', title: 'With a cover' });
    const items = (await publishedOn(h.sandbox, 'facebook')).filter((p) => p.userId === page.userId);
    expect(items).toEqual([
      expect.objectContaining({ mediaType: 'VIDEO', details: { thumb: { contentType: 'image/jpeg', size: 5000 } } }),
    ]);
  });

  test('when the cover of a video is not an image, then Facebook refuses the call and the post fails with its reason, nothing published', async () => {
    const page = await h.profile('facebook');

    const { outcome } = await publishOne(page, {
      caption: 'Watch',
      mediaUrls: [media.link('badcover.mp4', 100)],
      platformMeta: { facebook: { coverUrl: media.link('not-really.jpg', 5000) } },
    });

    expect(outcome).toMatchObject({ name: 'post.failed', data: { reason: expect.stringMatching(/thumb/) } });
    expect((await publishedOn(h.sandbox, 'facebook')).filter((p) => p.userId === page.userId)).toEqual([]);
  });

  test('when a reel has a cover, then nothing carries it: the reels API takes no thumbnail', async () => {
    const page = await h.profile('facebook');

    const { outcome, requests } = await publishOne(page, {
      caption: 'Reel with a cover',
      mediaUrls: [media.link('coverreel.mp4', 50_000)],
      platformMeta: {
        facebook: { reel: true, coverUrl: media.link('reelcover.jpg', 5000, { head: IMAGE_HEADS.jpeg }) },
      },
    });

    expect(outcome.name).toBe('post.published');
    expect(requests.every((r) => !String(r.headers['content-type'] ?? '').startsWith('multipart/'))).toBe(true);
    expect(media.requests.some((r) => r.includes('/reelcover.jpg'))).toBe(false);
  });

  test('when a reel is due, then start, streamed rupload with offset and file_size, finish, and status checks until published', async () => {
    const page = await h.profile('facebook');
    const video = media.link('reel.mp4', 150_000);

    const { job, outcome, lines, requests } = await publishOne(page, {
      caption: 'Reel time',
      mediaUrls: [video],
      platformMeta: { facebook: { reel: true } },
    });

    expect(outcome).toMatchObject({
      name: 'post.published',
      data: { permalink: `https://www.facebook.com/reel/${outcome.data.platformPostId}` },
    });
    expect(lines.slice(0, 3)).toEqual([
      'POST /facebook/v26.0/{user}/video_reels',
      'POST /rupload/video-upload/v26.0/{id}',
      'POST /facebook/v26.0/{user}/video_reels',
    ]);
    expect(lines.slice(3).every((l) => l === 'GET /facebook/v26.0/{id}?fields=status')).toBe(true);
    expect(lines.length).toBeGreaterThan(4);
    expect(bodiesOf(requests, 'POST', '/video_reels')).toEqual([
      { upload_phase: 'start' },
      { upload_phase: 'finish', video_id: expect.any(String), video_state: 'PUBLISHED', description: 'Reel time' },
    ]);
    const upload = requests.find((r) => r.path.includes('/rupload/'))!;
    expect(upload).toMatchObject({
      authScheme: 'OAuth',
      headers: expect.objectContaining({ offset: '0', file_size: '150000' }),
      bodyBytes: 150_000,
    });
    expect((await h.attempt(job.postId))!.checks).toBeGreaterThan(0);
    const items = (await publishedOn(h.sandbox, 'facebook')).filter((p) => p.userId === page.userId);
    expect(items).toEqual([expect.objectContaining({ mediaType: 'REELS', text: 'Reel time', bytes: 150_000 })]);
  });

  test('when the Page token lacks a permission, then the post fails with a reason naming what to grant', async () => {
    const page = await h.profile('facebook');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'facebook',
      mode: 'error',
      operation: 'publish',
      code: 200,
    });

    const { outcome } = await publishOne(page, { caption: 'No rights' });

    expect(outcome.name).toBe('post.failed');
    expect(outcome.data.reason).toMatch(/pages_manage_posts.*reconnect the Page/);
  });

  test('when the feed call goes unanswered after Facebook published it, then the post fails as outcome unknown and is not published twice', async () => {
    const page = await h.profile('facebook');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'facebook',
      mode: 'timeout',
      operation: 'publish',
      applied: true,
    });

    const { outcome, lines } = await publishOne(page, { caption: 'Lost answer' });

    expect(outcome.name).toBe('post.failed');
    expect(outcome.data.reason).toMatch(
      /^The outcome of publishing to Facebook is unknown.*not retried, so the post cannot appear twice/,
    );
    expect(lines.filter((l) => l.endsWith('/feed'))).toHaveLength(1);
    expect((await publishedOn(h.sandbox, 'facebook')).filter((p) => p.userId === page.userId)).toHaveLength(1);
  });
});
