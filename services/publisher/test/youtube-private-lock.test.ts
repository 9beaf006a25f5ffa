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

// The operator says the project passed the audit: only what YouTube answers can tell a lock.
beforeAll(async () => {
  h = await startPublisherHarness('pub_youtube_lock', { env: { YOUTUBE_PROJECT_AUDITED: 'true' } });
  media = await startMediaServer();
});
afterEach(() => {
  h.sandbox.state.youtube.limits.unauditedProject = true;
});
afterAll(async () => {
  await h?.stop();
  await media?.close();
});

async function publishOne(channel: SandboxProfile, fields: Parameters<PublisherHarness['due']>[1]) {
  const since = lastRequestSeq(h.sandbox);
  const job = h.due(channel, { title: 'My video', mediaUrls: [media.link('v.mp4', 100_000)], ...fields });
  await h.publish(job);
  const outcome = await h.outcome(job.postId);
  return { job, outcome, ...(await calls(h.sandbox, 'youtube', channel.userId, since)) };
}

async function withPublisher<T>(env: Record<string, string>, run: () => Promise<T>): Promise<T> {
  await h.stopPublisher();
  await h.startPublisher(env);
  try {
    return await run();
  } finally {
    await h.stopPublisher();
    await h.startPublisher();
  }
}

const lockWarning = { code: 'youtube_private_lock', message: expect.stringContaining('asked to be public') };

describe('a YouTube upload kept private', () => {
  test('when YouTube answers the upload private though it was asked public, then the post is published with the youtube_private_lock warning', async () => {
    const yt = await h.profile('youtube');

    const { outcome } = await publishOne(yt, { platformMeta: { youtube: { privacyStatus: 'public' } } });

    expect(outcome.name).toBe('post.published');
    expect(outcome.data.warnings).toEqual([lockWarning]);
    expect((await publishedOn(h.sandbox, 'youtube')).filter((p) => p.userId === yt.userId)).toEqual([
      expect.objectContaining({ details: expect.objectContaining({ privacyStatus: 'private' }) }),
    ]);
  });

  test('when the upload answer is lost, then the session probe reads the status back and the lock is still told', async () => {
    const yt = await h.profile('youtube');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'youtube',
      mode: 'timeout',
      operation: 'publish',
      applied: true,
    });

    const { outcome, lines } = await publishOne(yt, {});

    expect(outcome.name).toBe('post.published');
    expect(outcome.data.warnings).toEqual([lockWarning]);
    expect(lines.at(-1)).toBe('PUT /youtube/upload/youtube/v3/videos?uploadType=resumable');
  });

  test('when YouTube keeps the asked privacy (an audited project), then the post has no warning', async () => {
    const yt = await h.profile('youtube');
    h.sandbox.state.youtube.limits.unauditedProject = false;

    const { outcome } = await publishOne(yt, { platformMeta: { youtube: { privacyStatus: 'unlisted' } } });

    expect(outcome.name).toBe('post.published');
    expect(outcome.data.warnings).toBeUndefined();
  });

  test('when the post asks for a private video, then a private answer is no lock', async () => {
    const yt = await h.profile('youtube');

    const { outcome } = await publishOne(yt, { platformMeta: { youtube: { privacyStatus: 'private' } } });

    expect(outcome.name).toBe('post.published');
    expect(outcome.data.warnings).toBeUndefined();
  });

  test('when YOUTUBE_PRIVATE_LOCK=fail and YouTube keeps the upload private, then the post fails naming the private video, uploaded once', async () => {
    const yt = await h.profile('youtube');

    const { job, outcome } = await withPublisher({ YOUTUBE_PRIVATE_LOCK: 'fail' }, () => publishOne(yt, {}));

    const items = (await publishedOn(h.sandbox, 'youtube')).filter((p) => p.userId === yt.userId);
    expect(items).toHaveLength(1);
    expect(outcome.name).toBe('post.failed');
    expect(outcome.data.reason).toMatch(
      new RegExp(
        `^The post asks for a public YouTube video, but .* The video was uploaded and stays private on the channel \\(id ${items[0].id}\\)\\.`,
      ),
    );
    expect((await h.attempt(job.postId))!.tries).toBe(1);
  });

  test('when YOUTUBE_PRIVATE_LOCK=fail and the project is not audited, then a public post fails before anything is uploaded', async () => {
    const yt = await h.profile('youtube');

    const { outcome, lines } = await withPublisher(
      { YOUTUBE_PRIVATE_LOCK: 'fail', YOUTUBE_PROJECT_AUDITED: 'false' },
      () => publishOne(yt, {}),
    );

    expect(outcome.name).toBe('post.failed');
    expect(outcome.data.reason).toMatch(
      /^The post asks for a public YouTube video, .* Nothing was uploaded\. Set privacyStatus to private, or have the Google API project audited/,
    );
    expect(lines).toEqual([]);
  });
});
