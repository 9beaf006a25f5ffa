import { calls, lastRequestSeq, startMediaServer, type MediaServer } from '@postbus/testing';
import { publishedOn, startPublisherHarness, type PublisherHarness, type SandboxProfile } from './support/harness';

let h: PublisherHarness;
let media: MediaServer;

// The wait for the id outlasts the processing timeout on purpose: a live post must not fail on it.
beforeAll(async () => {
  media = await startMediaServer();
  h = await startPublisherHarness('pub_tiktok_post_id', {
    sandbox: { processingDelayMs: 40, tiktokAudit: { unaudited: false } },
    env: {
      TIKTOK_PULL_URL_PREFIXES: `${media.url}/verified/`,
      TIKTOK_POST_ID_WAIT_MS: '3000',
      PUBLISHER_PROCESSING_TIMEOUT_MS: '1000',
    },
  });
});
afterEach(() => {
  h.sandbox.state.tiktok.limits.withholdPostIdPolls = 1;
});
afterAll(async () => {
  await h?.stop();
  await media?.close();
});

async function publishOne(profile: SandboxProfile, privacyLevel: string) {
  const since = lastRequestSeq(h.sandbox);
  const job = h.due(profile, {
    title: 'A title',
    mediaUrls: [`${media.url}/verified/v.mp4`],
    platformMeta: { tiktok: { privacyLevel } },
  });
  await h.publish(job);
  const outcome = await h.outcome(job.postId);
  const { lines } = await calls(h.sandbox, 'tiktok', profile.userId, since);
  return { job, outcome, statusChecks: lines.filter((l) => l.endsWith('/status/fetch/')).length };
}

describe('a public TikTok post whose id TikTok withholds during moderation', () => {
  test('when TikTok answers PUBLISH_COMPLETE without the id for a few checks, then the post keeps waiting and is published under the real id and permalink', async () => {
    const tt = await h.profile('tiktok');
    h.sandbox.state.tiktok.limits.withholdPostIdPolls = 3;

    const { outcome, statusChecks } = await publishOne(tt, 'PUBLIC_TO_EVERYONE');

    const [item] = (await publishedOn(h.sandbox, 'tiktok')).filter((p) => p.userId === tt.userId);
    expect(outcome).toMatchObject({
      name: 'post.published',
      data: { platformPostId: item.id, permalink: `https://www.tiktok.com/@${tt.handle}/video/${item.id}` },
    });
    expect(outcome.data.warnings).toBeUndefined();
    expect(statusChecks).toBeGreaterThanOrEqual(4);
  });

  test('when the id is still withheld after TIKTOK_POST_ID_WAIT_MS, then the post is published under the publish_id, without permalink, with the tiktok_post_id_pending warning', async () => {
    const tt = await h.profile('tiktok');
    h.sandbox.state.tiktok.limits.withholdPostIdPolls = 1_000_000;

    const { job, outcome } = await publishOne(tt, 'PUBLIC_TO_EVERYONE');

    const [item] = (await publishedOn(h.sandbox, 'tiktok')).filter((p) => p.userId === tt.userId);
    expect(outcome).toMatchObject({
      name: 'post.published',
      data: { platformPostId: item.containerId, permalink: null },
    });
    expect(outcome.data.warnings).toEqual([
      {
        code: 'tiktok_post_id_pending',
        message: expect.stringContaining(`its platform id is the publish_id ${item.containerId}`),
      },
    ]);
    expect(await h.attempt(job.postId)).toMatchObject({ state: 'published', tries: 1 });
  });

  test('when the post is SELF_ONLY (never given a public id), then it is published under the publish_id at once, without a warning', async () => {
    const tt = await h.profile('tiktok');
    h.sandbox.state.tiktok.limits.withholdPostIdPolls = 1_000_000;

    const { outcome } = await publishOne(tt, 'SELF_ONLY');

    const [item] = (await publishedOn(h.sandbox, 'tiktok')).filter((p) => p.userId === tt.userId);
    expect(outcome).toMatchObject({
      name: 'post.published',
      data: { platformPostId: item.containerId, permalink: null },
    });
    expect(outcome.data.warnings).toBeUndefined();
  });
});
