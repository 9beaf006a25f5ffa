import { createXPost } from '@postbus/platforms';
import { bodiesOf, calls, lastRequestSeq, startMediaServer, type MediaServer } from '@postbus/testing';
import type { AdapterConfig } from '../src/publishing/adapters/adapter-config';
import { xFollowUps } from '../src/publishing/follow-ups/x-follow-ups';
import {
  publishedOn,
  sandboxControl,
  startPublisherHarness,
  type PublisherHarness,
  type SandboxProfile,
} from './support/harness';
import { collectFollowUps, type FollowUpEvents } from './support/follow-up-events';

let h: PublisherHarness;
let media: MediaServer;
let followUps: FollowUpEvents;

beforeAll(async () => {
  media = await startMediaServer();
  h = await startPublisherHarness('pub_x', { env: { PLATFORM_REQUEST_TIMEOUT_MS: '1500' } });
  followUps = await collectFollowUps(h.bus, 'x-threads');
});
afterAll(async () => {
  await followUps?.stop();
  await h?.stop();
  await media?.close();
});

const mine = async (p: { userId: string }) => (await publishedOn(h.sandbox, 'x')).filter((i) => i.userId === p.userId);

async function publishWith(profile: SandboxProfile, fields: Parameters<PublisherHarness['due']>[1]) {
  const since = lastRequestSeq(h.sandbox);
  const job = h.due(profile, fields);
  await h.publish(job);
  const outcome = await h.outcome(job.postId);
  const { lines: withQuery, requests } = await calls(h.sandbox, 'x', profile.userId, since);
  // Queries carry ids and times: compared on their own where they matter.
  const lines = withQuery.map((l) => l.split('?')[0]);
  return { job, outcome, lines, withQuery, requests };
}

describe('publishing to X', () => {
  test('when a text post is due, then one POST /2/tweets is sent and the post links to x.com/{username}/status/{id}', async () => {
    const x = await h.profile('x');
    const { outcome, lines, requests } = await publishWith(x, { caption: 'Hello X' });

    const [item] = await mine(x);
    expect(lines).toEqual(['POST /x/2/tweets']);
    expect(bodiesOf(requests, 'POST', '/2/tweets')).toEqual([{ text: 'Hello X' }]);
    expect(outcome).toMatchObject({
      name: 'post.published',
      data: { platformPostId: item.id, permalink: `https://x.com/${x.handle}/status/${item.id}` },
    });
  });

  test('when two images are due, then each is uploaded in one call and the post carries both media ids in order', async () => {
    const x = await h.profile('x');
    const { outcome, lines, requests } = await publishWith(x, {
      caption: 'Two views',
      mediaUrls: [media.link('a.jpg', 3000), media.link('b.png', 2000)],
    });

    expect(outcome.name).toBe('post.published');
    expect(lines).toEqual(['POST /x/2/media/upload', 'POST /x/2/media/upload', 'POST /x/2/tweets']);
    const [first, second] = requests.filter((r) => r.path === '/x/2/media/upload').map((r) => r.bodyBytes!);
    expect(first).toBeGreaterThan(3000);
    expect(second).toBeGreaterThan(2000);
    expect(second).toBeLessThan(3000);
    const [post] = bodiesOf(requests, 'POST', '/2/tweets') as { media: { media_ids: string[] } }[];
    expect(post.media.media_ids).toHaveLength(2);
    expect((await mine(x))[0]).toMatchObject({ mediaType: 'tweet_image', bytes: 5000 });
  });

  test('when a video is due, then it goes up in 5 MB chunks, X is asked until it has processed it, and then it is posted', async () => {
    const x = await h.profile('x');
    h.sandbox.state.x.limits.videoProcessingMs = 300;
    try {
      const size = 11 * 1024 * 1024;
      const { outcome, lines, withQuery, requests } = await publishWith(x, {
        caption: 'clip',
        mediaUrls: [media.link('v.mp4', size)],
      });

      expect(outcome.name).toBe('post.published');
      expect(lines.slice(0, 5)).toEqual([
        'POST /x/2/media/upload/initialize',
        'POST /x/2/media/upload/{id}/append',
        'POST /x/2/media/upload/{id}/append',
        'POST /x/2/media/upload/{id}/append',
        'POST /x/2/media/upload/{id}/finalize',
      ]);
      expect(
        withQuery.filter((l) => l.startsWith('GET /x/2/media/upload?command=STATUS&media_id=')).length,
      ).toBeGreaterThan(0);
      expect(lines.at(-1)).toBe('POST /x/2/tweets');
      expect(bodiesOf(requests, 'POST', '/initialize')).toEqual([
        { media_type: 'video/mp4', total_bytes: size, media_category: 'tweet_video' },
      ]);
      const chunks = requests.filter((r) => r.path.endsWith('/append')).map((r) => r.bodyBytes!);
      expect(chunks[0]).toBeGreaterThan(5 * 1024 * 1024);
      expect(chunks[2]).toBeLessThan(2 * 1024 * 1024);
      expect((await mine(x))[0]).toMatchObject({ mediaType: 'tweet_video', bytes: size });
    } finally {
      h.sandbox.state.x.limits.videoProcessingMs = 0;
    }
  });

  test('when a video comes with an image, then the post fails before anything is uploaded', async () => {
    const x = await h.profile('x');
    const { outcome, lines } = await publishWith(x, {
      caption: 'mixed',
      mediaUrls: [media.link('v.mp4', 5000), media.link('a.jpg', 1000)],
    });
    expect(outcome).toMatchObject({
      name: 'post.failed',
      data: { reason: expect.stringMatching(/one video or GIF alone/) },
    });
    expect(lines).toEqual([]);
  });
});

describe('media X would refuse', () => {
  test('when an image is over 5 MB, then the post fails naming the cap before anything is uploaded', async () => {
    const x = await h.profile('x');
    const { outcome, lines } = await publishWith(x, {
      caption: 'big',
      mediaUrls: [media.link('big.jpg', 5 * 1024 * 1024 + 1)],
    });
    expect(outcome).toMatchObject({
      name: 'post.failed',
      data: { reason: expect.stringMatching(/at most 5,242,880 bytes/) },
    });
    expect(lines).toEqual([]);
  });
});

describe('a lost answer and retries', () => {
  test('when the post went through but its answer was lost, then the user’s posts are read, it is found there and not posted again', async () => {
    const x = await h.profile('x');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'x',
      mode: 'timeout',
      operation: 'publish',
      applied: true,
    });
    const { outcome, lines, withQuery } = await publishWith(x, { caption: 'answer lost https://example.org/a' });

    const items = await mine(x);
    expect(items).toHaveLength(1);
    expect(lines).toEqual(['POST /x/2/tweets', 'GET /x/2/users/{user}/tweets']);
    expect(withQuery[1]).toMatch(
      /max_results=20&start_time=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ&tweet\.fields=created_at,attachments,referenced_tweets&exclude=retweets$/,
    );
    expect(outcome).toMatchObject({ name: 'post.published', data: { platformPostId: items[0].id } });
  });

  test('when the post never reached X and its answer was lost, then the look-up finds nothing and it is posted once', async () => {
    const x = await h.profile('x');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'x',
      mode: 'timeout',
      operation: 'publish',
      applied: false,
    });
    const { outcome, lines } = await publishWith(x, { caption: 'held then sent' });

    expect(lines).toEqual(['POST /x/2/tweets', 'GET /x/2/users/{user}/tweets', 'POST /x/2/tweets']);
    expect(await mine(x)).toHaveLength(1);
    expect(outcome.name).toBe('post.published');
  });

  test('when X fails with a 503 before posting, then the attempt is retried and the post goes out once', async () => {
    const x = await h.profile('x');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'x',
      mode: 'error',
      operation: 'upload',
      status: 503,
    });
    const { outcome, lines } = await publishWith(x, { caption: 'retried', mediaUrls: [media.link('r.jpg', 1000)] });

    expect(outcome.name).toBe('post.published');
    expect(lines).toEqual(['POST /x/2/media/upload', 'POST /x/2/media/upload', 'POST /x/2/tweets']);
  });

  test('when X rate limits the user, then the post waits for the window instead of failing and goes out after', async () => {
    const x = await h.profile('x');
    await sandboxControl(h.sandbox, 'POST', '/faults', { platform: 'x', mode: 'throttle', operation: 'publish' });
    const { outcome, lines, job } = await publishWith(x, { caption: 'after the window' });

    expect(outcome.name).toBe('post.published');
    // The refused post was saved as being sent: the user's posts are read before it is sent again.
    expect(lines).toEqual(['POST /x/2/tweets', 'GET /x/2/users/{user}/tweets', 'POST /x/2/tweets']);
    expect(await mine(x)).toHaveLength(1);
    // A deferral, not a try: the attempt waited on the throttle and went out on its first try.
    const attempt = (await h.attempt(job.postId))!;
    expect(attempt.tries).toBe(1);
    expect(attempt.throttled_since).not.toBeNull();
  });
});

describe('failures a person must act on', () => {
  test("when the connecting app's usage cap is reached, then the post fails saying the app's own X plan is the limit", async () => {
    const x = await h.profile('x');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'x',
      mode: 'error',
      operation: 'publish',
      reason: 'UsageCapExceeded',
    });
    const { outcome, lines } = await publishWith(x, { caption: 'over the cap' });

    expect(outcome).toMatchObject({
      name: 'post.failed',
      data: { reason: expect.stringMatching(/your own X developer app's plan \(UsageCapExceeded.*add credits/) },
    });
    expect(lines).toEqual(['POST /x/2/tweets']);
  });

  test('when the person revoked Postbus on X, then the post fails asking for a reconnect and nothing is posted', async () => {
    const x = await h.profile('x');
    await sandboxControl(h.sandbox, 'POST', `/users/${x.userId}/revoke`);
    const { outcome } = await publishWith(x, { caption: 'after revoking' });

    expect(outcome).toMatchObject({ name: 'post.failed', data: { reason: expect.stringMatching(/reconnect/i) } });
    expect(await mine(x)).toEqual([]);
  });
});

describe('an X reply chain', () => {
  test('when a post has a thread, then each part replies to the one before it, in order, and post.thread lists them posted', async () => {
    const x = await h.profile('x');
    const { job, outcome, requests } = await publishWith(x, {
      caption: 'Part one',
      thread: ['Part two', 'Part three'],
    });

    expect(outcome.name).toBe('post.published');
    const event = await followUps.announced('post.thread', job.postId);
    const items = await mine(x);
    expect(event.data.thread).toEqual([
      {
        text: 'Part two',
        status: 'posted',
        permalink: `https://x.com/${x.handle}/status/${items[1].id}`,
        failedReason: null,
      },
      {
        text: 'Part three',
        status: 'posted',
        permalink: `https://x.com/${x.handle}/status/${items[2].id}`,
        failedReason: null,
      },
    ]);
    expect(bodiesOf(requests, 'POST', '/2/tweets')).toEqual([
      { text: 'Part one' },
      { text: 'Part two', reply: { in_reply_to_tweet_id: items[0].id } },
      { text: 'Part three', reply: { in_reply_to_tweet_id: items[1].id } },
    ]);
  });

  test('when a part went through but its answer was lost, then find settles it from the user’s posts and a part never sent is not found', async () => {
    const x = await h.profile('x');
    const cfg = { xApiUrl: `${h.sandbox.url}/x`, requestTimeoutMs: 5000 } as AdapterConfig;
    const api = { baseUrl: cfg.xApiUrl, accessToken: x.accessToken };
    const root = await createXPost(api, { text: 'root' });
    const sentAt = Date.now();
    const part = await createXPost(api, { text: 'part two', inReplyTo: root.id });
    const ctx = (text: string) => ({
      creds: {
        profileId: x.profileId,
        platform: 'x' as const,
        platformUserId: x.userId,
        handle: x.handle,
        accessToken: x.accessToken,
        status: 'active' as const,
      },
      postId: root.id,
      parentId: root.id,
      text,
      progress: { sentAt },
      save: async () => undefined,
    });

    expect(await xFollowUps(cfg).find(ctx('part two'))).toEqual({
      kind: 'sent',
      id: part.id,
      permalink: `https://x.com/${x.handle}/status/${part.id}`,
    });
    expect(await xFollowUps(cfg).find(ctx('part three'))).toEqual({ kind: 'not_found', progress: {} });
  });
});
