import { calls, lastRequestSeq, startMediaServer, type MediaServer } from '@postbus/testing';
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
  media = await startMediaServer();
  h = await startPublisherHarness('pub_tiktok', {
    sandbox: {
      processingDelayMs: 60,
      // An audited client (the unaudited rules have their own tests: tiktok-unaudited.test.ts).
      tiktokAudit: { unaudited: false },
      tiktok: {
        minChunkBytes: 65_536,
        privacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
        duetDisabled: true,
      },
    },
    env: { TIKTOK_CHUNK_BYTES: '65536', TIKTOK_PULL_URL_PREFIXES: `${media.url}/verified/` },
  });
});
afterAll(async () => {
  await h?.stop();
  await media?.close();
});

async function publishOne(profile: SandboxProfile, fields: Parameters<PublisherHarness['due']>[1]) {
  const since = lastRequestSeq(h.sandbox);
  const job = h.due(profile, { title: 'A title', ...fields });
  await h.publish(job);
  const outcome = await h.outcome(job.postId);
  return { job, outcome, ...(await calls(h.sandbox, 'tiktok', profile.userId, since)) };
}

const tiktok = (settings: Record<string, unknown>) => ({ tiktok: settings });

describe('publishing to TikTok', () => {
  test('when a video from unverified storage is due, then creator_info, FILE_UPLOAD init, chunked PUTs with Content-Range, and status checks until PUBLISH_COMPLETE', async () => {
    const tt = await h.profile('tiktok');
    const video = media.link('dance.mp4', 200_000);

    const { job, outcome, lines, requests } = await publishOne(tt, {
      caption: 'Dance #fyp',
      mediaUrls: [video],
      platformMeta: tiktok({
        privacyLevel: 'FOLLOWER_OF_CREATOR',
        disableComment: true,
        videoCoverTimestampMs: 1200,
        commercialContentDisclosure: true,
        brandOrganicOptIn: true,
      }),
    });

    expect(outcome.name).toBe('post.published');
    expect(outcome.data.permalink).toBe(`https://www.tiktok.com/@${tt.handle}/video/${outcome.data.platformPostId}`);
    expect(lines.slice(0, 5)).toEqual([
      'POST /tiktok/v2/post/publish/creator_info/query/',
      'POST /tiktok/v2/post/publish/video/init/',
      'PUT /tiktok-upload/video/',
      'PUT /tiktok-upload/video/',
      'PUT /tiktok-upload/video/',
    ]);
    expect(lines.slice(5).every((l) => l === 'POST /tiktok/v2/post/publish/status/fetch/')).toBe(true);
    expect(lines.length).toBeGreaterThanOrEqual(6);
    expect(requests[1].body).toEqual({
      post_info: {
        title: 'Dance #fyp',
        privacy_level: 'FOLLOWER_OF_CREATOR',
        disable_comment: true,
        brand_content_toggle: false,
        brand_organic_toggle: true,
        disable_duet: true,
        disable_stitch: false,
        video_cover_timestamp_ms: 1200,
      },
      source_info: { source: 'FILE_UPLOAD', video_size: 200_000, chunk_size: 65_536, total_chunk_count: 3 },
    });
    expect(
      requests.slice(2, 5).map((r) => [r.headers['content-range'], r.headers['content-type'], r.bodyBytes]),
    ).toEqual([
      ['bytes 0-65535/200000', 'video/mp4', 65_536],
      ['bytes 65536-131071/200000', 'video/mp4', 65_536],
      ['bytes 131072-199999/200000', 'video/mp4', 68_928],
    ]);
    expect((await h.attempt(job.postId))!.checks).toBeGreaterThan(0);
    const items = (await publishedOn(h.sandbox, 'tiktok')).filter((p) => p.userId === tt.userId);
    expect(items).toEqual([expect.objectContaining({ mediaType: 'VIDEO', bytes: 200_000, text: 'Dance #fyp' })]);
    // The sandbox sends the 19-digit int64 id as a JSON number: only a lossless parse keeps every digit.
    expect(items[0].id).toMatch(/^\d{19}$/);
    expect(outcome.data.platformPostId).toBe(items[0].id);
    expect(outcome.data.permalink).toBe(`https://www.tiktok.com/@${tt.handle}/video/${items[0].id}`);
  });

  test('when a video on a verified prefix is due, then TikTok pulls it (PULL_FROM_URL) and no bytes are uploaded', async () => {
    const tt = await h.profile('tiktok');
    const video = `${media.url}/verified/clip.mp4?size=1000`;

    const { outcome, lines, requests } = await publishOne(tt, {
      caption: '',
      mediaUrls: [video],
      platformMeta: tiktok({ privacyLevel: 'SELF_ONLY' }),
    });

    expect(outcome.name).toBe('post.published');
    // a private post has no public id: the publish id stands in, without a permalink
    expect(outcome.data).toMatchObject({ platformPostId: expect.stringMatching(/^v_pub_url~/), permalink: null });
    expect(lines.filter((l) => l.startsWith('PUT'))).toEqual([]);
    expect(requests[1].body).toMatchObject({
      post_info: { title: 'A title', privacy_level: 'SELF_ONLY' },
      source_info: { source: 'PULL_FROM_URL', video_url: video },
    });
  });

  test('when only images are due, then one photo post is pulled from their URLs with title and description', async () => {
    const tt = await h.profile('tiktok');
    const photos = [`${media.url}/verified/1.jpg`, `${media.url}/verified/2.jpg`];

    const { outcome, lines, requests } = await publishOne(tt, {
      title: 'Two photos',
      caption: 'Longer description',
      mediaUrls: photos,
      platformMeta: tiktok({ privacyLevel: 'PUBLIC_TO_EVERYONE' }),
    });

    expect(outcome.name).toBe('post.published');
    expect(lines[1]).toBe('POST /tiktok/v2/post/publish/content/init/');
    expect(requests[1].body).toEqual({
      media_type: 'PHOTO',
      post_mode: 'DIRECT_POST',
      post_info: {
        title: 'Two photos',
        description: 'Longer description',
        privacy_level: 'PUBLIC_TO_EVERYONE',
        disable_comment: false,
        brand_content_toggle: false,
        brand_organic_toggle: false,
        auto_add_music: true,
      },
      source_info: { source: 'PULL_FROM_URL', photo_images: photos, photo_cover_index: 0 },
    });
  });

  test('when photos are not under a verified prefix, then the post fails saying how to verify one, and TikTok is never asked to pull them', async () => {
    const tt = await h.profile('tiktok');

    const { outcome, lines } = await publishOne(tt, {
      mediaUrls: [`${media.url}/verified/1.jpg`, `${media.url}/elsewhere/2.jpg`],
      platformMeta: tiktok({ privacyLevel: 'SELF_ONLY' }),
    });

    expect(outcome.name).toBe('post.failed');
    expect(outcome.data.reason).toContain('TIKTOK_PULL_URL_PREFIXES');
    expect(outcome.data.reason).toContain('https://developers.tiktok.com/doc/set-up-development-configuration');
    expect(lines).not.toContain('POST /tiktok/v2/post/publish/content/init/');
  });

  test('when a photo is a PNG, then the post fails before any init: TikTok takes JPEG or WebP photos only', async () => {
    const tt = await h.profile('tiktok');

    const { outcome, lines } = await publishOne(tt, {
      mediaUrls: [`${media.url}/verified/1.webp`, `${media.url}/verified/2.png`],
      platformMeta: tiktok({ privacyLevel: 'SELF_ONLY' }),
    });

    expect(outcome.name).toBe('post.failed');
    expect(outcome.data.reason).toBe('TikTok takes photos as JPEG or WebP only; convert the images and publish again.');
    expect(lines).not.toContain('POST /tiktok/v2/post/publish/content/init/');
  });

  test('when the privacy level is not one the creator allows, then the post fails listing the allowed ones, before any init', async () => {
    const tt = await h.profile('tiktok');

    const { outcome, lines } = await publishOne(tt, {
      mediaUrls: [media.link('v.mp4', 100)],
      platformMeta: tiktok({ privacyLevel: 'MUTUAL_FOLLOW_FRIENDS' }),
    });

    expect(outcome.name).toBe('post.failed');
    expect(outcome.data.reason).toBe(
      'This TikTok account does not allow the privacy level MUTUAL_FOLLOW_FRIENDS; choose one of PUBLIC_TO_EVERYONE, FOLLOWER_OF_CREATOR, SELF_ONLY.',
    );
    expect(lines).toEqual(['POST /tiktok/v2/post/publish/creator_info/query/']);
  });

  test('when TikTok cannot pull the video, then the post fails with the readable fail_reason', async () => {
    const tt = await h.profile('tiktok');

    const { outcome } = await publishOne(tt, {
      mediaUrls: [`${media.url}/verified/fail-processing.mp4`],
      platformMeta: tiktok({ privacyLevel: 'PUBLIC_TO_EVERYONE' }),
    });

    expect(outcome.name).toBe('post.failed');
    expect(outcome.data.reason).toBe(
      'TikTok could not download the video from its link; make sure the link is public and points straight at the file.',
    );
  });

  test('when TikTok fails the publish with an internal error once, then the retry makes a new init (the failed publish_id is never asked about again) and the post is published once', async () => {
    const tt = await h.profile('tiktok');
    const video = `${media.url}/verified/fail-processing-internal-once.mp4`;

    const { job, outcome, lines } = await publishOne(tt, {
      mediaUrls: [video],
      platformMeta: tiktok({ privacyLevel: 'PUBLIC_TO_EVERYONE' }),
    });

    expect(outcome.name).toBe('post.published');
    expect(lines.filter((l) => l === 'POST /tiktok/v2/post/publish/video/init/')).toHaveLength(2);
    const items = (await publishedOn(h.sandbox, 'tiktok')).filter((p) => p.userId === tt.userId);
    expect(items).toHaveLength(1);
    expect(outcome.data.platformPostId).toBe(items[0].id);
    expect(await h.attempt(job.postId)).toMatchObject({ state: 'published', tries: 2 });
  });

  test('when the creator reached the daily post cap, then the post fails permanently with a reason saying when to try again', async () => {
    const tt = await h.profile('tiktok');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'tiktok',
      mode: 'error',
      operation: 'create',
      status: 403,
      reason: 'spam_risk_too_many_posts',
    });

    const { job, outcome } = await publishOne(tt, {
      mediaUrls: [media.link('v.mp4', 100)],
      platformMeta: tiktok({ privacyLevel: 'PUBLIC_TO_EVERYONE' }),
    });

    expect(outcome.name).toBe('post.failed');
    expect(outcome.data.reason).toBe(
      'This TikTok account has reached its daily limit of posts published through apps; publish it again tomorrow.',
    );
    expect((await h.attempt(job.postId))!.tries).toBe(1);
  });

  test('when a status check is throttled, then it is checked again without counting an attempt', async () => {
    const tt = await h.profile('tiktok');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'tiktok',
      mode: 'throttle',
      operation: 'status',
      count: 2,
    });

    const { job, outcome } = await publishOne(tt, {
      mediaUrls: [media.link('v.mp4', 1000)],
      platformMeta: tiktok({ privacyLevel: 'PUBLIC_TO_EVERYONE' }),
    });

    expect(outcome.name).toBe('post.published');
    expect(await h.attempt(job.postId)).toMatchObject({ state: 'published', tries: 1 });
  });
});
