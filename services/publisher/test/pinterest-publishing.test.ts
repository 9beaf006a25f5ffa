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
  media = await startMediaServer();
  h = await startPublisherHarness('pub_pinterest', {
    env: {
      PLATFORM_REQUEST_TIMEOUT_MS: '1500',
      PUBLISHER_THROTTLE_MIN_DEFER_MS: '200',
      PUBLISHER_BACKOFF_BASE_MS: '50',
    },
  });
});
afterAll(async () => {
  await h?.stop();
  await media?.close();
});

/** A Pinterest profile with one board (and a section of it). */
async function pinner(handle: string): Promise<SandboxProfile & { boardId: string; sectionId: string }> {
  const p = await h.profile('pinterest', handle);
  const board = await sandboxControl(h.sandbox, 'POST', '/pinterest/boards', {
    userId: p.userId,
    name: 'Ideas',
    sections: 1,
  });
  const b = board.body as { id: string; sectionIds: string[] };
  return { ...p, boardId: b.id, sectionId: b.sectionIds[0] };
}

const mine = async (p: { userId: string }) =>
  (await publishedOn(h.sandbox, 'pinterest')).filter((item) => item.userId === p.userId);

async function publishOne(p: SandboxProfile, fields: Parameters<PublisherHarness['due']>[1]) {
  const since = lastRequestSeq(h.sandbox);
  const job = h.due(p, fields);
  await h.publish(job);
  const outcome = await h.outcome(job.postId);
  return { job, outcome, ...(await calls(h.sandbox, 'pinterest', p.userId, since)) };
}

describe('publishing to Pinterest', () => {
  test('when an image pin is due, then one POST /v5/pins carries the board, section, title, description, link and alt text, and the post gets the pin permalink', async () => {
    const p = await pinner('image_pin');
    const image = media.link('pin.jpg', 2000);
    const { outcome, lines, requests } = await publishOne(p, {
      caption: 'A calm kitchen',
      mediaUrls: [image],
      platformMeta: {
        pinterest: {
          boardId: p.boardId,
          boardSectionId: p.sectionId,
          title: 'Kitchen',
          link: 'https://example.com/k',
          altText: 'White tiles',
        },
      },
    });
    const [item] = await mine(p);
    expect(lines).toEqual(['POST /pinterest/v5/pins']);
    expect(bodiesOf(requests, 'POST', '/v5/pins')).toEqual([
      {
        board_id: p.boardId,
        board_section_id: p.sectionId,
        title: 'Kitchen',
        description: 'A calm kitchen',
        link: 'https://example.com/k',
        alt_text: 'White tiles',
        media_source: { source_type: 'image_url', url: image },
      },
    ]);
    expect(outcome).toMatchObject({
      name: 'post.published',
      data: { platformPostId: item.id, permalink: `https://www.pinterest.com/pin/${item.id}/` },
    });
  });

  test('when three images are due, then the pin is a carousel of multiple_image_urls in their order', async () => {
    const p = await pinner('carousel_pin');
    const urls = ['a.jpg', 'b.jpg', 'c.jpg'].map((n) => media.link(n, 1000));
    const { outcome, requests } = await publishOne(p, {
      mediaUrls: urls,
      platformMeta: { pinterest: { boardId: p.boardId } },
    });
    expect(outcome.name).toBe('post.published');
    expect(bodiesOf(requests, 'POST', '/v5/pins')[0].media_source).toEqual({
      source_type: 'multiple_image_urls',
      items: urls.map((url) => ({ url })),
    });
  });

  test('when a video is due, then it is registered, uploaded with every upload parameter, waited for and pinned by media id with a cover frame', async () => {
    const p = await pinner('video_pin');
    const { outcome, lines, requests } = await publishOne(p, {
      mediaUrls: [media.link('clip.mp4', 300_000)],
      platformMeta: { pinterest: { boardId: p.boardId, coverKeyFrameSeconds: 2 } },
    });
    expect(outcome.name).toBe('post.published');
    expect(lines).toEqual([
      'POST /pinterest/v5/media',
      'POST /pinterest-upload/{id}',
      'GET /pinterest/v5/media/{id}',
      'POST /pinterest/v5/pins',
    ]);
    // Streamed, with the form's length announced as S3 wants it.
    expect(requests[1].bodyBytes).toBeGreaterThan(300_000);
    expect(Number(requests[1].headers['content-length'])).toBe(requests[1].bodyBytes);
    const mediaId = requests[1].path.split('/').pop();
    expect(bodiesOf(requests, 'POST', '/v5/pins')[0].media_source).toEqual({
      source_type: 'video_id',
      media_id: mediaId,
      cover_image_key_frame_time: 2,
    });
  });

  test('when the post names no board, then it fails saying so before any call to Pinterest', async () => {
    const p = await pinner('boardless_pin');
    const { outcome, lines } = await publishOne(p, { mediaUrls: [media.link('n.jpg', 1000)] });
    expect(outcome).toMatchObject({ name: 'post.failed', data: { reason: expect.stringContaining('boardId') } });
    expect(lines).toEqual([]);
  });
});

describe('failures', () => {
  test('when the pin answer is lost, then the board is searched, the pin found, and nothing is pinned twice', async () => {
    const p = await pinner('lost_pin');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'pinterest',
      mode: 'timeout',
      operation: 'publish',
      applied: true,
    });
    const { outcome, lines } = await publishOne(p, {
      caption: 'answer lost',
      mediaUrls: [media.link('l.jpg', 1000)],
      platformMeta: { pinterest: { boardId: p.boardId } },
    });
    const items = await mine(p);
    expect(items).toHaveLength(1);
    expect(lines).toEqual(['POST /pinterest/v5/pins', `GET /pinterest/v5/boards/{id}/pins?page_size=50`]);
    expect(outcome).toMatchObject({ name: 'post.published', data: { platformPostId: items[0].id } });
  });

  test('when Pinterest fails with a 503, then the board is checked, nothing found, and the retry pins once', async () => {
    const p = await pinner('retry_pin');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'pinterest',
      mode: 'error',
      operation: 'publish',
      status: 503,
    });
    const { outcome, lines } = await publishOne(p, {
      mediaUrls: [media.link('r.jpg', 1000)],
      platformMeta: { pinterest: { boardId: p.boardId } },
    });
    expect(outcome.name).toBe('post.published');
    expect(lines).toEqual([
      'POST /pinterest/v5/pins',
      'GET /pinterest/v5/boards/{id}/pins?page_size=50',
      'POST /pinterest/v5/pins',
    ]);
    expect(await mine(p)).toHaveLength(1);
  });

  test('when Pinterest answers 429, then the post waits (no attempt counted) and is pinned once', async () => {
    const p = await pinner('throttled_pin');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'pinterest',
      mode: 'throttle',
      operation: 'publish',
    });
    const { job, outcome } = await publishOne(p, {
      mediaUrls: [media.link('t.jpg', 1000)],
      platformMeta: { pinterest: { boardId: p.boardId } },
    });
    expect(outcome.name).toBe('post.published');
    expect(await mine(p)).toHaveLength(1);
    expect(await h.attempt(job.postId)).toMatchObject({ state: 'published', tries: 1 });
  });

  test('when the board is not the account own, then the post fails for good with Pinterest message', async () => {
    const p = await pinner('wrong_board_pin');
    const { outcome } = await publishOne(p, {
      mediaUrls: [media.link('w.jpg', 1000)],
      platformMeta: { pinterest: { boardId: '12345' } },
    });
    expect(outcome).toMatchObject({
      name: 'post.failed',
      data: { reason: expect.stringContaining('Board not found') },
    });
  });

  test('when the person revoked Postbus, then the post fails asking for a reconnect and nothing is pinned', async () => {
    const p = await pinner('revoked_pin');
    await sandboxControl(h.sandbox, 'POST', `/users/${p.userId}/revoke`);
    const { outcome } = await publishOne(p, {
      mediaUrls: [media.link('v.jpg', 1000)],
      platformMeta: { pinterest: { boardId: p.boardId } },
    });
    expect(outcome).toMatchObject({ name: 'post.failed', data: { reason: expect.stringMatching(/reconnect/i) } });
    expect(await mine(p)).toEqual([]);
  });

  test('when Pinterest cannot process the video, then the post fails for good saying so and nothing is pinned', async () => {
    const p = await pinner('failed_video_pin');
    await sandboxControl(h.sandbox, 'POST', '/pinterest/access', { failVideoProcessing: true });
    try {
      const { outcome, lines } = await publishOne(p, {
        mediaUrls: [media.link('bad.mp4', 50_000)],
        platformMeta: { pinterest: { boardId: p.boardId } },
      });
      expect(outcome).toMatchObject({
        name: 'post.failed',
        data: { reason: expect.stringContaining('could not process the video') },
      });
      expect(lines.filter((l) => l.includes('/v5/pins'))).toEqual([]);
    } finally {
      await sandboxControl(h.sandbox, 'POST', '/pinterest/access', { failVideoProcessing: false });
    }
  });

  test('when a video comes with an image, or there is no media at all, then the post fails before any call', async () => {
    const p = await pinner('mixed_pin');
    const mixed = await publishOne(p, {
      mediaUrls: [media.link('m.mp4', 50_000), media.link('m.jpg', 1000)],
      platformMeta: { pinterest: { boardId: p.boardId } },
    });
    expect(mixed.outcome).toMatchObject({
      name: 'post.failed',
      data: { reason: expect.stringContaining('one video and nothing else') },
    });
    const none = await publishOne(p, { platformMeta: { pinterest: { boardId: p.boardId } } });
    expect(none.outcome).toMatchObject({
      name: 'post.failed',
      data: { reason: expect.stringContaining('needs an image or a video') },
    });
    expect([...mixed.lines, ...none.lines]).toEqual([]);
  });
});
