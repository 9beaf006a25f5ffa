import { bodiesOf, calls, lastRequestSeq, startMediaServer, type MediaServer } from '@postbus/testing';
import { publishedOn, sandboxControl, startPublisherHarness, type PublisherHarness } from './support/harness';
import { blueskyProfile } from './support/bluesky-profile';

let h: PublisherHarness;
let media: MediaServer;

beforeAll(async () => {
  media = await startMediaServer();
  h = await startPublisherHarness('pub_bluesky', { env: { PLATFORM_REQUEST_TIMEOUT_MS: '1500' } });
});
afterAll(async () => {
  await h?.stop();
  await media?.close();
});

const PERMALINK = /^https:\/\/bsky\.app\/profile\/([^/]+)\/post\/([234567a-z]{13})$/;

describe('publishing to Bluesky', () => {
  test('when a text post is due, then one record is written under a key chosen beforehand, with facets at byte offsets, and its permalink is announced', async () => {
    const bs = await blueskyProfile(h, 'text_sky');
    const since = lastRequestSeq(h.sandbox);
    const caption = 'Grüße 👋🏽 see https://example.com/launch #LaunchDay';
    const job = h.due(bs, { caption, platformMeta: { bluesky: { langs: ['de', 'en'], linkCard: false } } });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    const { lines, requests } = await calls(h.sandbox, 'bluesky', bs.userId, since);
    const [rkey] = PERMALINK.exec(outcome.data.permalink ?? '')?.slice(2) ?? [];
    expect(outcome).toMatchObject({
      name: 'post.published',
      data: {
        platformPostId: `at://${bs.did}/app.bsky.feed.post/${rkey}`,
        permalink: `https://bsky.app/profile/${bs.handle}/post/${rkey}`,
      },
    });
    expect(lines).toEqual(['POST /bluesky/xrpc/com.atproto.repo.createRecord']);
    const [body] = bodiesOf(requests, 'POST', '/com.atproto.repo.createRecord') as {
      rkey: string;
      record: Record<string, unknown>;
    }[];
    expect(body).toMatchObject({ repo: bs.did, collection: 'app.bsky.feed.post', rkey, validate: true });
    const bytes = Buffer.from(caption);
    const facets = body.record.facets as { index: { byteStart: number; byteEnd: number }; features: unknown[] }[];
    expect(facets.map((f) => bytes.subarray(f.index.byteStart, f.index.byteEnd).toString())).toEqual([
      'https://example.com/launch',
      '#LaunchDay',
    ]);
    expect(body.record).toMatchObject({ $type: 'app.bsky.feed.post', text: caption, langs: ['de', 'en'] });
    expect((await h.attempt(job.postId))?.checkpoint).toMatchObject({ rkey });
  });

  test('when a post with two images is due, then each is uploaded as a blob and the record carries them with their alt texts', async () => {
    const bs = await blueskyProfile(h, 'photo_sky');
    const since = lastRequestSeq(h.sandbox);
    const urls = [media.link('a.jpg', 3000), media.link('b.png', 2000)];
    const job = h.due(bs, {
      caption: 'Two views',
      mediaUrls: urls,
      platformMeta: { bluesky: { altTexts: ['The harbour at dawn'] } },
    });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    const { lines, requests } = await calls(h.sandbox, 'bluesky', bs.userId, since);
    expect(outcome.name).toBe('post.published');
    expect(lines).toEqual([
      'POST /bluesky/xrpc/com.atproto.repo.uploadBlob',
      'POST /bluesky/xrpc/com.atproto.repo.uploadBlob',
      'POST /bluesky/xrpc/com.atproto.repo.createRecord',
    ]);
    expect(requests.slice(0, 2).map((r) => r.bodyBytes)).toEqual([3000, 2000]);
    const [item] = (await publishedOn(h.sandbox, 'bluesky')).filter((p) => p.userId === bs.userId);
    expect(item).toMatchObject({
      text: 'Two views',
      mediaType: 'images',
      bytes: 5000,
      details: { alts: ['The harbour at dawn', ''] },
    });
  });

  test('when more than one video or five images are due, then the post fails without any call to Bluesky', async () => {
    const bs = await blueskyProfile(h, 'strict_sky');
    const since = lastRequestSeq(h.sandbox);
    const job = h.due(bs, { caption: 'Too many', mediaUrls: [1, 2, 3, 4, 5].map((i) => media.link(`${i}.jpg`, 100)) });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    expect(outcome).toMatchObject({ name: 'post.failed', data: { reason: expect.stringMatching(/at most 4 images/) } });
    expect((await calls(h.sandbox, 'bluesky', bs.userId, since)).lines).toEqual([]);
  });

  test('when the createRecord answer is lost, then the retry finds the post under its key and does not write it again', async () => {
    const bs = await blueskyProfile(h, 'lossy_sky');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'bluesky',
      mode: 'timeout',
      operation: 'publish',
      applied: true,
    });
    const since = lastRequestSeq(h.sandbox);
    const job = h.due(bs, { caption: 'answer lost' });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    const { lines } = await calls(h.sandbox, 'bluesky', bs.userId, since);
    const items = (await publishedOn(h.sandbox, 'bluesky')).filter((p) => p.userId === bs.userId);
    expect(outcome.name).toBe('post.published');
    expect(items).toHaveLength(1);
    expect(lines).toEqual([
      'POST /bluesky/xrpc/com.atproto.repo.createRecord',
      'GET /bluesky/xrpc/com.atproto.repo.getRecord?repo=' +
        bs.did +
        '&collection=app.bsky.feed.post&rkey=' +
        items[0].details?.rkey,
    ]);
    expect(outcome.data).toMatchObject({ platformPostId: items[0].id, permalink: items[0].permalink });
  });

  test('when Bluesky fails the write with a 500 (the answer a taken key also gets), then the retry asks under the key first and writes once', async () => {
    const bs = await blueskyProfile(h, 'flaky_sky');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'bluesky',
      mode: 'error',
      operation: 'publish',
      status: 500,
    });
    const since = lastRequestSeq(h.sandbox);
    const job = h.due(bs, { caption: 'second time lucky' });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    const { lines } = await calls(h.sandbox, 'bluesky', bs.userId, since);
    expect(outcome.name).toBe('post.published');
    expect(lines.map((l) => l.split('?')[0])).toEqual([
      'POST /bluesky/xrpc/com.atproto.repo.createRecord',
      'GET /bluesky/xrpc/com.atproto.repo.getRecord',
      'POST /bluesky/xrpc/com.atproto.repo.createRecord',
    ]);
    expect((await publishedOn(h.sandbox, 'bluesky')).filter((p) => p.userId === bs.userId)).toHaveLength(1);
  });
});
