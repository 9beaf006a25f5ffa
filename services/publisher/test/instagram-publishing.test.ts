import { bodiesOf, calls, lastRequestSeq, startMediaServer, type MediaServer } from '@postbus/testing';
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
  h = await startPublisherHarness('pub_instagram', {
    // a video container stays IN_PROGRESS 300 ms, so the first status check sees it processing even on a loaded machine
    sandbox: { processingDelayMs: 300, instagram: { quotaTotal: 2 } },
  });
  media = await startMediaServer();
});
afterAll(async () => {
  await h?.stop();
  await media?.close();
});

async function publishOne(profile: SandboxProfile, fields: Parameters<PublisherHarness['due']>[1]) {
  const since = lastRequestSeq(h.sandbox);
  const job = h.due(profile, fields);
  await h.publish(job);
  const outcome = await h.outcome(job.postId);
  return { job, outcome, ...(await calls(h.sandbox, 'instagram', profile.userId, since)) };
}

describe('publishing to Instagram', () => {
  test('when an image post is due, then the quota is checked, one container is created, checked, published and its permalink read', async () => {
    const ig = await h.profile('instagram');
    const image = media.link('photo.jpg', 5000);

    const { outcome, lines, requests } = await publishOne(ig, { caption: 'Sunset #nofilter', mediaUrls: [image] });

    expect(outcome.name).toBe('post.published');
    expect(outcome.data.permalink).toMatch(/^https:\/\/www\.instagram\.com\/p\/[\w-]{11}\/$/);
    expect(lines).toEqual([
      'GET /instagram/v26.0/{user}/content_publishing_limit?fields=quota_usage,config',
      'POST /instagram/v26.0/{user}/media',
      'GET /instagram/v26.0/{id}?fields=status_code,status',
      'POST /instagram/v26.0/{user}/media_publish',
      'GET /instagram/v26.0/{id}?fields=id,permalink',
    ]);
    expect(bodiesOf(requests, 'POST', '/media')).toEqual([{ image_url: image, caption: 'Sunset #nofilter' }]);
    expect(requests.every((r) => r.authScheme === 'Bearer')).toBe(true);
    const published = (await publishedOn(h.sandbox, 'instagram')).filter((p) => p.userId === ig.userId);
    expect(published).toEqual([
      expect.objectContaining({
        id: outcome.data.platformPostId,
        mediaType: 'IMAGE',
        text: 'Sunset #nofilter',
        mediaUrls: [image],
      }),
    ]);
  });

  test('when a reel with a cover and a cover frame is due, then the container carries them and is checked until FINISHED without holding a worker', async () => {
    const ig = await h.profile('instagram');
    const video = media.link('clip.mp4', 20_000);
    const cover = media.link('cover.jpg', 100);

    const { job, outcome, lines, requests } = await publishOne(ig, {
      caption: 'Behind the scenes',
      mediaUrls: [video],
      platformMeta: { instagram: { coverUrl: cover, thumbOffsetMs: 1500 } },
    });

    expect(outcome.name).toBe('post.published');
    expect(outcome.data.permalink).toMatch(/^https:\/\/www\.instagram\.com\/reel\//);
    expect(bodiesOf(requests, 'POST', '/media')).toEqual([
      {
        media_type: 'REELS',
        video_url: video,
        caption: 'Behind the scenes',
        share_to_feed: 'true',
        cover_url: cover,
        thumb_offset: '1500',
      },
    ]);
    const polls = lines.filter((l) => l.endsWith('fields=status_code,status'));
    expect(polls.length).toBeGreaterThan(1);
    expect(lines.filter((l) => l.includes('media_publish'))).toHaveLength(1);
    // every check after the first came back as its own delivery, scheduled with a delay
    const attempt = await h.attempt(job.postId);
    expect(attempt).toMatchObject({ state: 'published', tries: 1 });
    expect(attempt!.checks).toBe(polls.length - 1);
  });

  test('when several media are due, then carousel items are created first, then the CAROUSEL container, published once', async () => {
    const ig = await h.profile('instagram');
    const [a, b] = [media.link('a.jpg', 800), media.link('b.mp4', 900)];

    const { outcome, lines, requests } = await publishOne(ig, { caption: 'Two things', mediaUrls: [a, b] });

    expect(outcome.name).toBe('post.published');
    const creations = bodiesOf(requests, 'POST', '/media');
    expect(creations.slice(0, 2)).toEqual([
      { image_url: a, is_carousel_item: 'true' },
      { media_type: 'VIDEO', video_url: b, is_carousel_item: 'true' },
    ]);
    expect(creations[2]).toEqual({
      media_type: 'CAROUSEL',
      children: expect.stringMatching(/^\d+,\d+$/),
      caption: 'Two things',
    });
    expect(lines.filter((l) => l.includes('media_publish'))).toHaveLength(1);
    const [item] = (await publishedOn(h.sandbox, 'instagram')).filter((p) => p.userId === ig.userId);
    expect(item).toMatchObject({ mediaType: 'CAROUSEL', mediaUrls: [a, b] });
  });

  test('when a story is asked for, then a STORIES container is published without a caption', async () => {
    const ig = await h.profile('instagram');
    const image = media.link('story.jpg', 300);

    const { outcome, requests } = await publishOne(ig, {
      caption: 'ignored for stories',
      mediaUrls: [image],
      platformMeta: { instagram: { story: true } },
    });

    expect(outcome.name).toBe('post.published');
    expect(outcome.data.permalink).toContain('/stories/');
    expect(bodiesOf(requests, 'POST', '/media')).toEqual([{ media_type: 'STORIES', image_url: image }]);
  });

  test('when Instagram cannot fetch the video, then the post fails with a reason saying the link must be public', async () => {
    const ig = await h.profile('instagram');

    const { outcome, lines } = await publishOne(ig, { mediaUrls: [media.link('fail-processing.mp4', 100)] });

    expect(outcome.name).toBe('post.failed');
    expect(outcome.data.reason).toMatch(/^Instagram could not fetch the media: the link must be public/);
    expect(lines.some((l) => l.includes('media_publish'))).toBe(false);
  });

  test('when the container ends in ERROR with a "try again" subcode (2207003) once, then the retry creates a new container instead of asking about the dead one, and publishes once', async () => {
    const ig = await h.profile('instagram');
    const video = media.link('fail-processing-2207003-once.mp4', 100);

    const { job, outcome, lines, requests } = await publishOne(ig, { mediaUrls: [video] });

    expect(outcome.name).toBe('post.published');
    expect(bodiesOf(requests, 'POST', '/media')).toEqual([
      expect.objectContaining({ video_url: video }),
      expect.objectContaining({ video_url: video }),
    ]);
    expect(lines.filter((l) => l.includes('media_publish'))).toHaveLength(1);
    expect((await publishedOn(h.sandbox, 'instagram')).filter((p) => p.userId === ig.userId)).toHaveLength(1);
    expect(await h.attempt(job.postId)).toMatchObject({ state: 'published', tries: 2 });
  });

  test('when every container ends in ERROR with a "try again" subcode, then each attempt makes a new one and the post fails after the last with the subcode\'s reason', async () => {
    const ig = await h.profile('instagram');

    const { job, outcome, requests } = await publishOne(ig, {
      mediaUrls: [media.link('fail-processing-2207053.mp4', 100)],
    });

    expect(outcome.name).toBe('post.failed');
    expect(outcome.data.reason).toMatch(
      /^Instagram had an unknown problem uploading the video\. Postbus gave up after 5 attempts/,
    );
    expect(bodiesOf(requests, 'POST', '/media')).toHaveLength(5);
    expect(requests.some((r) => r.path.endsWith('/media_publish'))).toBe(false);
    expect(await h.attempt(job.postId)).toMatchObject({ state: 'failed', tries: 5 });
  });

  test('when a carousel item ends in ERROR with a "try again" subcode once, then every item is created again and the carousel is published once', async () => {
    const ig = await h.profile('instagram');
    const [a, b] = [media.link('a.jpg', 800), media.link('fail-processing-2207001-once.mp4', 900)];

    const { outcome, requests } = await publishOne(ig, { caption: 'Again', mediaUrls: [a, b] });

    expect(outcome.name).toBe('post.published');
    const creations = bodiesOf(requests, 'POST', '/media');
    expect(creations.filter((c) => c.is_carousel_item === 'true')).toHaveLength(4);
    expect(creations.filter((c) => c.media_type === 'CAROUSEL')).toHaveLength(1);
    expect((await publishedOn(h.sandbox, 'instagram')).filter((p) => p.userId === ig.userId)).toHaveLength(1);
  });

  test('when the cover frame is outside the video, then the post fails with a reason about thumbOffsetMs', async () => {
    const ig = await h.profile('instagram');

    const { outcome } = await publishOne(ig, {
      mediaUrls: [media.link('long.mp4', 100)],
      platformMeta: { instagram: { thumbOffsetMs: 999_999 } },
    });

    expect(outcome.name).toBe('post.failed');
    expect(outcome.data.reason).toMatch(/thumbOffsetMs/);
  });

  test('when the caption has more than 30 hashtags, then the post fails before any call to Instagram', async () => {
    const ig = await h.profile('instagram');
    const caption = Array.from({ length: 31 }, (_, i) => `#tag${i}`).join(' ');

    const { outcome, lines } = await publishOne(ig, { caption, mediaUrls: [media.link('x.jpg', 100)] });

    expect(outcome.name).toBe('post.failed');
    expect(outcome.data.reason).toMatch(/31 hashtags.*at most 30/);
    expect(lines).toEqual([]);
  });

  test('when Instagram throttles the publish call once, then the post waits (no attempt counted), is retried and published once', async () => {
    const ig = await h.profile('instagram');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'instagram',
      mode: 'throttle',
      operation: 'publish',
      code: 4,
    });

    const { job, outcome, lines } = await publishOne(ig, { mediaUrls: [media.link('t.jpg', 100)] });

    expect(outcome.name).toBe('post.published');
    expect(lines.filter((l) => l.includes('media_publish'))).toHaveLength(2);
    expect((await publishedOn(h.sandbox, 'instagram')).filter((p) => p.userId === ig.userId)).toHaveLength(1);
    expect(await h.attempt(job.postId)).toMatchObject({ state: 'published', tries: 1 });
  });
});
