import { bodiesOf, calls, lastRequestSeq, startMediaServer, type MediaServer } from '@postbus/testing';
import { publishedOn, startPublisherHarness, type PublisherHarness, type SandboxProfile } from './support/harness';

let h: PublisherHarness;
let media: MediaServer;

beforeAll(async () => {
  // Long enough that a loaded machine still finds a container in progress at its first check.
  h = await startPublisherHarness('pub_threads', { sandbox: { processingDelayMs: 400 } });
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
  return { job, outcome, ...(await calls(h.sandbox, 'threads', profile.userId, since)) };
}

describe('publishing to Threads', () => {
  test('when a text post is due, then one TEXT container is checked until FINISHED, published once, and its permalink announced', async () => {
    const th = await h.profile('threads');

    const { outcome, lines, requests } = await publishOne(th, { caption: 'Just words' });

    expect(outcome).toMatchObject({
      name: 'post.published',
      data: { permalink: expect.stringMatching(/^https:\/\/www\.threads\.net\/@.+\/post\/[\w-]{11}$/) },
    });
    expect(lines[0]).toBe('POST /threads/v1.0/{user}/threads');
    expect(
      lines.filter((l) => l === 'GET /threads/v1.0/{id}?fields=status,error_message').length,
    ).toBeGreaterThanOrEqual(2);
    expect(lines.slice(-2)).toEqual([
      'POST /threads/v1.0/{user}/threads_publish',
      'GET /threads/v1.0/{id}?fields=id,permalink',
    ]);
    expect(bodiesOf(requests, 'POST', '/threads')).toEqual([{ media_type: 'TEXT', text: 'Just words' }]);
  });

  test('when an image post and a video post are due, then each gets an IMAGE or VIDEO container with its URL', async () => {
    const th = await h.profile('threads');
    const image = media.link('pic.png', 100);
    const video = media.link('clip.mov', 100);

    const first = await publishOne(th, { caption: 'A picture', mediaUrls: [image] });
    const second = await publishOne(th, { caption: 'A clip', mediaUrls: [video] });

    expect([first.outcome.name, second.outcome.name]).toEqual(['post.published', 'post.published']);
    expect(bodiesOf(first.requests, 'POST', '/threads')).toEqual([
      { media_type: 'IMAGE', image_url: image, text: 'A picture' },
    ]);
    expect(bodiesOf(second.requests, 'POST', '/threads')).toEqual([
      { media_type: 'VIDEO', video_url: video, text: 'A clip' },
    ]);
  });

  test('when stored media without an extension is due, then its kind is read from the Content-Type', async () => {
    const th = await h.profile('threads');
    const stored = `${media.url}/files/med_abc?type=video/mp4&size=100&sig=x`;

    const { outcome, requests } = await publishOne(th, { caption: '', mediaUrls: [stored] });

    expect(outcome.name).toBe('post.published');
    expect(bodiesOf(requests, 'POST', '/threads')).toEqual([{ media_type: 'VIDEO', video_url: stored }]);
  });

  test('when a carousel is due, then items are created, then the CAROUSEL parent with their ids, published once', async () => {
    const th = await h.profile('threads');
    const urls = [media.link('1.jpg', 10), media.link('2.jpg', 10), media.link('3.mp4', 10)];

    const { outcome, requests } = await publishOne(th, { caption: 'Three', mediaUrls: urls });

    expect(outcome.name).toBe('post.published');
    const creations = bodiesOf(requests, 'POST', '/threads');
    expect(creations).toEqual([
      { media_type: 'IMAGE', image_url: urls[0], is_carousel_item: 'true' },
      { media_type: 'IMAGE', image_url: urls[1], is_carousel_item: 'true' },
      { media_type: 'VIDEO', video_url: urls[2], is_carousel_item: 'true' },
      { media_type: 'CAROUSEL', children: expect.stringMatching(/^\d+,\d+,\d+$/), text: 'Three' },
    ]);
    expect(requests.filter((r) => r.path.endsWith('/threads_publish'))).toHaveLength(1);
    const [item] = (await publishedOn(h.sandbox, 'threads')).filter((p) => p.userId === th.userId);
    expect(item).toMatchObject({ mediaType: 'CAROUSEL', mediaUrls: urls, text: 'Three' });
  });

  test('when the text is longer than 500 as Threads counts it, then the post fails before any call', async () => {
    const th = await h.profile('threads');

    const { outcome, lines } = await publishOne(th, { caption: '👍'.repeat(126) });

    expect(outcome.name).toBe('post.failed');
    expect(outcome.data.reason).toMatch(/504 characters long as Threads counts it.*at most 500/);
    expect(lines).toEqual([]);
  });

  test('when Threads fails to process the video, then the post fails with the readable reason and nothing is published', async () => {
    const th = await h.profile('threads');

    const { outcome, lines } = await publishOne(th, {
      caption: 'Broken',
      mediaUrls: [media.link('fail-processing-INVALID_DURATION.mp4', 10)],
    });

    expect(outcome.name).toBe('post.failed');
    expect(outcome.data.reason).toBe(
      "Threads does not accept the video's duration; trim it to at most 5 minutes and make it longer than a second.",
    );
    expect(lines.some((l) => l.includes('threads_publish'))).toBe(false);
  });
});
