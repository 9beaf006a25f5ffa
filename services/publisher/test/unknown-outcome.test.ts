import { calls, lastRequestSeq, startMediaServer, type MediaServer } from '@postbus/testing';
import { publishedOn, sandboxControl, startPublisherHarness, type PublisherHarness } from './support/harness';

let h: PublisherHarness;
let media: MediaServer;

beforeAll(async () => {
  media = await startMediaServer();
  h = await startPublisherHarness('pub_unknown', {
    sandbox: { tiktokAudit: { unaudited: false } },
    env: {
      PLATFORM_REQUEST_TIMEOUT_MS: '1500',
      PLATFORM_UPLOAD_TIMEOUT_MS: '600000',
      TIKTOK_PULL_URL_PREFIXES: `${media.url}/verified/`,
    },
  });
});
afterAll(async () => {
  await h?.stop();
  await media?.close();
});

const lost = (platform: string, operation: string, applied: boolean) =>
  sandboxControl(h.sandbox, 'POST', '/faults', { platform, mode: 'timeout', operation, applied });

describe('a publish call whose answer never came', () => {
  test("when Threads published but the answer was lost, then the container status settles it and the user's posts name the media: posted once, no second publish", async () => {
    const th = await h.profile('threads');
    await lost('threads', 'publish', true);
    const since = lastRequestSeq(h.sandbox);
    const job = h.due(th, { caption: 'answer lost' });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    expect(outcome.name).toBe('post.published');
    const { lines } = await calls(h.sandbox, 'threads', th.userId, since);
    expect(lines.filter((l) => l.endsWith('/threads_publish'))).toHaveLength(1);
    expect(lines.at(-2)).toBe('GET /threads/v1.0/{id}?fields=status,error_message');
    expect(lines.at(-1)).toMatch(
      /^GET \/threads\/v1\.0\/\{user\}\/threads\?fields=id,permalink,text,timestamp&since=\d+&limit=50$/,
    );
    const items = (await publishedOn(h.sandbox, 'threads')).filter((p) => p.userId === th.userId);
    expect(items).toHaveLength(1);
    // The media id and permalink of the post itself, not its container's: first comments and chain parts reply to it.
    expect(outcome.data).toMatchObject({ platformPostId: items[0].id, permalink: items[0].permalink });
    expect(items[0].id).not.toBe(items[0].containerId);
  });

  test('when a Threads post without text published but the answer was lost, then nothing tells its media apart and the container id stands in', async () => {
    const th = await h.profile('threads');
    await lost('threads', 'publish', true);
    const job = h.due(th, { caption: '', mediaUrls: [media.link('photo.jpg', 20_000)] });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    expect(outcome.name).toBe('post.published');
    const items = (await publishedOn(h.sandbox, 'threads')).filter((p) => p.userId === th.userId);
    expect(items).toHaveLength(1);
    expect(outcome.data).toMatchObject({ platformPostId: items[0].containerId, permalink: null });
  });

  test('when the Instagram publish call never arrived, then the container is still FINISHED and it is published once', async () => {
    const ig = await h.profile('instagram');
    await lost('instagram', 'publish', false);
    const job = h.due(ig, { mediaUrls: [media.link('a.jpg', 10)] });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    expect(outcome.name).toBe('post.published');
    expect(outcome.data.permalink).toMatch(/instagram\.com\/p\//);
    expect((await publishedOn(h.sandbox, 'instagram')).filter((p) => p.userId === ig.userId)).toHaveLength(1);
    expect(await h.attempt(job.postId)).toMatchObject({ state: 'published', tries: 2 });
  });

  test('when YouTube stored the last bytes of an upload but its answer was lost, then the answer deadline (not the 10-minute upload deadline) ends the wait and the session settles it: posted once', async () => {
    const yt = await h.profile('youtube');
    await lost('youtube', 'publish', true);
    const since = lastRequestSeq(h.sandbox);
    const job = h.due(yt, { title: 'answer lost', mediaUrls: [media.link('v.mp4', 300_000)] });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    expect(outcome).toMatchObject({
      name: 'post.published',
      data: { permalink: `https://www.youtube.com/watch?v=${outcome.data.platformPostId}` },
    });
    const { lines } = await calls(h.sandbox, 'youtube', yt.userId, since);
    // one upload session, its bytes sent once: the held PUT, then `*/total` probes that find the video complete
    expect(lines.filter((l) => l.startsWith('POST'))).toHaveLength(1);
    const sent = h.sandbox.state.requests
      .list({ platform: 'youtube', since })
      .reduce((n, r) => n + (r.bodyBytes ?? 0), 0);
    expect(sent).toBe(300_000);
    const items = (await publishedOn(h.sandbox, 'youtube')).filter((p) => p.userId === yt.userId);
    expect(items).toHaveLength(1);
  });

  test('when TikTok accepted a pull but its publish_id was lost, then nothing can be asked and the post fails as unknown, never pulled twice', async () => {
    const tt = await h.profile('tiktok');
    await lost('tiktok', 'publish', true);
    const since = lastRequestSeq(h.sandbox);
    const job = h.due(tt, {
      title: 't',
      mediaUrls: [`${media.url}/verified/v.mp4`],
      platformMeta: { tiktok: { privacyLevel: 'PUBLIC_TO_EVERYONE' } },
    });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    expect(outcome.name).toBe('post.failed');
    expect(outcome.data.reason).toMatch(/^The outcome of publishing to TikTok is unknown/);
    const { lines } = await calls(h.sandbox, 'tiktok', tt.userId, since);
    expect(lines.filter((l) => l.endsWith('/video/init/'))).toHaveLength(1);
  });

  test('when post.due is delivered again after the post was published, then the outcome is announced again and the platform is not called', async () => {
    const th = await h.profile('threads');
    const job = h.due(th, { caption: 'delivered twice' });
    await h.publish(job);
    await h.outcome(job.postId);
    const since = lastRequestSeq(h.sandbox);

    await h.publish(job);
    await waitForCount(() => h.outcomes.filter((o) => o.data.postId === job.postId).length, 2);

    const announced = h.outcomes.filter((o) => o.data.postId === job.postId);
    expect(announced.map((o) => o.name)).toEqual(['post.published', 'post.published']);
    expect(announced[1].data.platformPostId).toBe(announced[0].data.platformPostId);
    // one fact, one event id: subscribers that deduplicate by id (webhook deliveries) hear it once
    expect(announced[1].id).toBe(announced[0].id);
    expect((await calls(h.sandbox, 'threads', th.userId, since)).lines).toEqual([]);
  });

  test('when post.due arrives twice at once, then only one delivery calls the platform and the post is published once', async () => {
    const th = await h.profile('threads');
    const job = h.due(th, { caption: 'twin deliveries' });
    const since = lastRequestSeq(h.sandbox);

    await h.publish(job, job);
    await h.outcome(job.postId);
    // the other delivery waits for the first to finish, then re-announces
    await waitForCount(() => h.outcomes.filter((o) => o.data.postId === job.postId).length, 2);

    const announced = h.outcomes.filter((o) => o.data.postId === job.postId);
    expect(new Set(announced.map((o) => `${o.name}:${o.data.platformPostId}`)).size).toBe(1);
    expect(
      (await calls(h.sandbox, 'threads', th.userId, since)).lines.filter((l) => l.endsWith('/threads_publish')),
    ).toHaveLength(1);
    expect((await publishedOn(h.sandbox, 'threads')).filter((p) => p.userId === th.userId)).toHaveLength(1);
    // the second delivery waited: it neither took the attempt over nor counted a try
    expect(await h.attempt(job.postId)).toMatchObject({ state: 'published', tries: 1, seq: 1 });
  });
});

async function waitForCount(count: () => number, n: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (count() >= n) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`expected ${n}, saw ${count()}`);
}
