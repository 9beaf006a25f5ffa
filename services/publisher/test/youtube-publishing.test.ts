import { IMAGE_HEADS, calls, lastRequestSeq, startMediaServer, type MediaServer } from '@postbus/testing';
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
  h = await startPublisherHarness('pub_youtube', {
    env: { YOUTUBE_CHUNK_BYTES: '262144', PLATFORM_UPLOAD_TIMEOUT_MS: '2000' },
  });
  media = await startMediaServer();
});
afterAll(async () => {
  await h?.stop();
  await media?.close();
});

async function publishOne(channel: SandboxProfile, fields: Parameters<PublisherHarness['due']>[1]) {
  const since = lastRequestSeq(h.sandbox);
  const job = h.due(channel, { title: 'My video', ...fields });
  await h.publish(job);
  const outcome = await h.outcome(job.postId);
  return { job, outcome, ...(await calls(h.sandbox, 'youtube', channel.userId, since)) };
}

const UPLOAD = '/youtube/upload/youtube/v3';

describe('publishing to YouTube', () => {
  test('when a video with a thumbnail is due, then a resumable session is opened, the bytes PUT in 256 KiB chunks, and the thumbnail set', async () => {
    const yt = await h.profile('youtube');
    const video = media.link('talk.mp4', 600_000);
    const thumb = media.link('thumb.jpg', 4000, { head: IMAGE_HEADS.jpeg });

    const { outcome, lines, requests } = await publishOne(yt, {
      caption: 'All about it',
      mediaUrls: [video],
      platformMeta: { youtube: { thumbnailUrl: thumb, privacyStatus: 'unlisted', madeForKids: false } },
    });

    expect(outcome).toMatchObject({
      name: 'post.published',
      data: { permalink: `https://www.youtube.com/watch?v=${outcome.data.platformPostId}` },
    });
    expect(lines).toEqual([
      `POST ${UPLOAD}/videos?uploadType=resumable&part=snippet,status`,
      `PUT ${UPLOAD}/videos?uploadType=resumable`,
      `PUT ${UPLOAD}/videos?uploadType=resumable`,
      `PUT ${UPLOAD}/videos?uploadType=resumable`,
      `POST ${UPLOAD}/thumbnails/set`,
    ]);
    expect(requests[0]).toMatchObject({
      authScheme: 'Bearer',
      headers: expect.objectContaining({ 'x-upload-content-length': '600000', 'x-upload-content-type': 'video/mp4' }),
      body: {
        snippet: { title: 'My video', description: 'All about it', categoryId: '22' },
        status: { privacyStatus: 'unlisted', selfDeclaredMadeForKids: false },
      },
    });
    expect(requests.slice(1, 4).map((r) => [r.headers['content-range'], r.bodyBytes])).toEqual([
      ['bytes 0-262143/600000', 262_144],
      ['bytes 262144-524287/600000', 262_144],
      ['bytes 524288-599999/600000', 75_712],
    ]);
    expect(requests[4]).toMatchObject({
      headers: expect.objectContaining({ 'content-type': 'image/jpeg' }),
      bodyBytes: 4000,
    });
    const items = (await publishedOn(h.sandbox, 'youtube')).filter((p) => p.userId === yt.userId);
    // the sandbox's project is unaudited, as a new one is: YouTube keeps the upload private, and the post says so
    expect(items).toEqual([
      expect.objectContaining({
        title: 'My video',
        text: 'All about it',
        bytes: 600_000,
        details: expect.objectContaining({
          privacyStatus: 'private',
          askedPrivacyStatus: 'unlisted',
          thumbnailBytes: 4000,
        }),
      }),
    ]);
    expect(outcome.data.warnings).toEqual([
      {
        code: 'youtube_private_lock',
        message: expect.stringMatching(
          /^The video is on YouTube but private, though it was asked to be unlisted: .*audit/,
        ),
      },
    ]);
  });

  test.each([
    [
      'Clip rejected-duplicate',
      'YouTube rejected the video as a duplicate of a video already on the channel; it was not published.',
    ],
    [
      'Clip failed-codec',
      'YouTube could not process the video: its codec is not supported; re-encode it as H.264 MP4; it was not published.',
    ],
  ])(
    'when YouTube answers the finished upload with a rejected or failed uploadStatus (%s), then the post fails with the reason and nothing is published',
    async (title, reason) => {
      const yt = await h.profile('youtube');

      const { job, outcome, lines } = await publishOne(yt, {
        title,
        mediaUrls: [media.link('dup.mp4', 100_000)],
        platformMeta: { youtube: { thumbnailUrl: media.link('t.jpg', 100) } },
      });

      expect(outcome).toMatchObject({ name: 'post.failed', data: { reason } });
      expect(lines.some((l) => l.includes('thumbnails/set'))).toBe(false);
      expect((await h.attempt(job.postId))!.tries).toBe(1);
      expect((await publishedOn(h.sandbox, 'youtube')).filter((p) => p.userId === yt.userId)).toEqual([]);
    },
  );

  test('when the thumbnail link serves bytes that are not a JPEG or PNG, then YouTube refuses it (invalidImage) and the video stays posted without it', async () => {
    const yt = await h.profile('youtube');

    const { outcome, lines } = await publishOne(yt, {
      mediaUrls: [media.link('plain.mp4', 100_000)],
      platformMeta: { youtube: { thumbnailUrl: media.link('fake.jpg', 4000) } },
    });

    expect(outcome.name).toBe('post.published');
    expect(lines.filter((l) => l.endsWith('/thumbnails/set'))).toHaveLength(1);
    const items = (await publishedOn(h.sandbox, 'youtube')).filter((p) => p.userId === yt.userId);
    expect(items).toHaveLength(1);
    expect(items[0].details).not.toHaveProperty('thumbnailBytes');
  });

  test('when YouTube keeps only part of each chunk (308 with Range), then the upload resumes from what it holds', async () => {
    const yt = await h.profile('youtube');
    h.sandbox.state.youtube.limits.maxStoredBytesPerRequest = 200_000;
    try {
      const { outcome, requests } = await publishOne(yt, { mediaUrls: [media.link('v.mp4', 500_000)] });

      expect(outcome.name).toBe('post.published');
      expect(requests.filter((r) => r.method === 'PUT').map((r) => r.headers['content-range'])).toEqual([
        'bytes 0-262143/500000',
        'bytes 200000-462143/500000',
        'bytes 400000-499999/500000',
      ]);
    } finally {
      h.sandbox.state.youtube.limits.maxStoredBytesPerRequest = null;
    }
  });

  test('when a chunk fails with a server error, then the session is probed with bytes */total and the upload resumes', async () => {
    const yt = await h.profile('youtube');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'youtube',
      mode: 'error',
      operation: 'upload',
      status: 503,
    });

    const { job, outcome, requests } = await publishOne(yt, { mediaUrls: [media.link('v.mp4', 300_000)] });

    expect(outcome.name).toBe('post.published');
    expect(requests.filter((r) => r.method === 'PUT').map((r) => r.headers['content-range'])).toEqual([
      'bytes 0-262143/300000',
      'bytes */300000',
      'bytes 0-262143/300000',
      'bytes 262144-299999/300000',
    ]);
    expect((await h.attempt(job.postId))!.tries).toBe(1);
    expect((await publishedOn(h.sandbox, 'youtube')).filter((p) => p.userId === yt.userId)).toHaveLength(1);
  });

  test('when the last chunk is answered too late after YouTube completed the video, then the session probe finds it and it is published once', async () => {
    const yt = await h.profile('youtube');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'youtube',
      mode: 'timeout',
      operation: 'publish',
      applied: true,
    });

    const { outcome, requests } = await publishOne(yt, { mediaUrls: [media.link('v.mp4', 1000)] });

    expect(outcome.name).toBe('post.published');
    expect(requests.filter((r) => r.method === 'PUT').map((r) => r.headers['content-range'])).toEqual([
      'bytes 0-999/1000',
      'bytes */1000',
    ]);
    expect((await publishedOn(h.sandbox, 'youtube')).filter((p) => p.userId === yt.userId)).toHaveLength(1);
  });

  test('when the media cannot be read once the upload session is open (its bytes answer 5xx), then after the retries the post fails naming the media, not as an unknown outcome', async () => {
    const yt = await h.profile('youtube');

    const { job, outcome, lines } = await publishOne(yt, {
      mediaUrls: [media.link('gone.mp4', 300_000, { getStatus: '500' })],
    });

    expect(outcome.name).toBe('post.failed');
    expect(outcome.data.reason).toMatch(
      /^The media could not be read: 127\.0\.0\.1:\d+ answered HTTP 500\. Postbus gave up after \d+ attempts/,
    );
    expect(outcome.data.reason).not.toMatch(/outcome|unanswered/i);
    // sessions were opened (and probed on each retry), but no byte reached YouTube and nothing was published
    expect(lines.filter((l) => l.startsWith('PUT')).length).toBeGreaterThan(0);
    expect((await h.attempt(job.postId))!.tries).toBeGreaterThan(1);
    expect((await publishedOn(h.sandbox, 'youtube')).filter((p) => p.userId === yt.userId)).toEqual([]);
  });

  test.each(['404', '410'])(
    'when the media answers %s once the upload session is open (the stored object is gone), then the post fails at once naming the media',
    async (status) => {
      const yt = await h.profile('youtube');

      const { job, outcome } = await publishOne(yt, {
        mediaUrls: [media.link('gone.mp4', 300_000, { getStatus: status })],
      });

      expect(outcome).toMatchObject({
        name: 'post.failed',
        data: {
          reason: expect.stringMatching(
            new RegExp(`^The media could not be read: 127\\.0\\.0\\.1:\\d+ answered HTTP ${status};`),
          ),
        },
      });
      expect((await h.attempt(job.postId))!.tries).toBe(1);
    },
  );

  test('when the title is longer than 100 characters, then the post fails before any call', async () => {
    const yt = await h.profile('youtube');

    const { outcome, lines } = await publishOne(yt, { title: 'x'.repeat(101), mediaUrls: [media.link('v.mp4', 100)] });

    expect(outcome.name).toBe('post.failed');
    expect(outcome.data.reason).toBe('The title is 101 characters long; YouTube allows at most 100. Shorten it.');
    expect(lines).toEqual([]);
  });

  test("when the channel's own upload limit is reached, then the post fails saying to publish tomorrow", async () => {
    const yt = await h.profile('youtube');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'youtube',
      mode: 'error',
      operation: 'create',
      status: 400,
      reason: 'uploadLimitExceeded',
    });

    const { outcome } = await publishOne(yt, { mediaUrls: [media.link('v.mp4', 100)] });

    expect(outcome).toMatchObject({
      name: 'post.failed',
      data: {
        reason:
          'This YouTube channel has reached its own limit of uploads for the last 24 hours; publish it again tomorrow.',
      },
    });
  });

  test("when the project's daily quota is used up, then the retry waits for the quota reset at midnight Pacific", async () => {
    const yt = await h.profile('youtube');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'youtube',
      mode: 'error',
      operation: 'create',
      status: 403,
      reason: 'quotaExceeded',
    });
    const job = h.due(yt, { title: 'Later', mediaUrls: [media.link('v.mp4', 100)] });

    await h.publish(job);
    const attempt = await waitForState(job.postId, 'retry');

    expect(attempt.last_error).toMatch(/daily quota is used up/);
    expect(new Date(attempt.next_at).getTime() - new Date(attempt.updated_at).getTime()).toBeGreaterThan(55_000);
  });
});

async function waitForState(postId: string, state: string): Promise<Record<string, any>> {
  for (let i = 0; i < 200; i++) {
    const row = await h.attempt(postId);
    if (row?.state === state) return row;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`attempt ${postId} never reached ${state}`);
}
