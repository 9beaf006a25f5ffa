import { startMediaServer, type MediaServer } from '@postbus/testing';
import { sandboxControl, startPublisherHarness, type PublisherHarness } from './support/harness';

let h: PublisherHarness;
let media: MediaServer;

beforeAll(async () => {
  // One post at a time per process: waiting on a platform must not take that one slot.
  // The video processes for 2.5 s, long enough on a loaded machine for two text posts and several checks.
  h = await startPublisherHarness('pub_processing', {
    env: { PUBLISHER_CONCURRENCY: '1', PUBLISHER_PROCESSING_TIMEOUT_MS: '6000' },
  });
  media = await startMediaServer();
});
afterAll(async () => {
  await h?.stop();
  await media?.close();
});

describe('media the platform is still processing', () => {
  test('when a video is processing, then other posts are published meanwhile by the same single worker', async () => {
    await sandboxControl(h.sandbox, 'POST', '/settings', { platform: 'instagram', processingDelayMs: 2500 });
    const ig = await h.profile('instagram');
    const th = await h.profile('threads');
    const video = h.due(ig, { mediaUrls: [media.link('slow.mp4', 100)] });
    const texts = [h.due(th, { caption: 'first while waiting' }), h.due(th, { caption: 'second while waiting' })];

    await h.publish(video);
    await waitForState(video.postId, 'waiting');
    await h.publish(...texts);
    await Promise.all([video, ...texts].map((j) => h.outcome(j.postId)));

    const order = h.outcomes
      .filter((o) => [video, ...texts].some((j) => j.postId === o.data.postId))
      .map((o) => o.data.postId);
    expect(order).toEqual([texts[0].postId, texts[1].postId, video.postId]);
    expect(h.outcomes.find((o) => o.data.postId === video.postId)!.name).toBe('post.published');
    expect((await h.attempt(video.postId))!.checks).toBeGreaterThan(1);
  });

  test('when the platform processes longer than the ceiling, then the post fails saying it stopped waiting', async () => {
    await sandboxControl(h.sandbox, 'POST', '/settings', { platform: 'instagram', processingDelayMs: 600_000 });
    const ig = await h.profile('instagram');
    const job = h.due(ig, { mediaUrls: [media.link('endless.mp4', 100)] });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    expect(outcome.name).toBe('post.failed');
    expect(outcome.data.reason).toMatch(
      /^Instagram was still processing the video after \d+ seconds?, so Postbus stopped waiting; check the media/,
    );
    expect(await h.attempt(job.postId)).toMatchObject({ state: 'failed', tries: 1 });
  });
});

async function waitForState(postId: string, state: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await h.attempt(postId))?.state === state) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`attempt ${postId} never reached ${state}`);
}
