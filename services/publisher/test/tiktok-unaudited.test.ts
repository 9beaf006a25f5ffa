import { startMediaServer, type MediaServer } from '@postbus/testing';
import { startPublisherHarness, type PublisherHarness } from './support/harness';

/**
 * The sandbox's default TikTok client is unaudited, as every new TikTok app is: SELF_ONLY posts,
 * private accounts only. The adapter reports each refusal with what to do.
 */
let h: PublisherHarness;
let media: MediaServer;

beforeAll(async () => {
  media = await startMediaServer();
  h = await startPublisherHarness('pub_tiktok_unaudited', {
    sandbox: { processingDelayMs: 20 },
    env: { TIKTOK_PULL_URL_PREFIXES: `${media.url}/verified/` },
  });
});
afterAll(async () => {
  await h?.stop();
  await media?.close();
});

async function tiktokProfile(privateAccount: boolean) {
  const profile = await h.profile('tiktok');
  h.sandbox.state.users.get(profile.userId)!.privateAccount = privateAccount;
  return profile;
}

async function post(privateAccount: boolean, privacyLevel: string) {
  const job = h.due(await tiktokProfile(privateAccount), {
    title: 'Clip',
    mediaUrls: [media.link('verified/clip.mp4', 10_000)],
    platformMeta: { tiktok: { privacyLevel } },
  });
  await h.publish(job);
  return h.outcome(job.postId);
}

describe('an unaudited TikTok client', () => {
  test('when a SELF_ONLY post goes to a private account, then it is published', async () => {
    const outcome = await post(true, 'SELF_ONLY');

    expect(outcome.name).toBe('post.published');
  });

  test('when the account is public, then TikTok refuses the init and the post fails saying to go private or get audited', async () => {
    const outcome = await post(false, 'SELF_ONLY');

    expect(outcome.name).toBe('post.failed');
    expect(outcome.data.reason).toContain("has not passed TikTok's audit");
  });

  test('when PUBLIC_TO_EVERYONE is asked, then the post fails before any init: creator_info offers only SELF_ONLY', async () => {
    const outcome = await post(true, 'PUBLIC_TO_EVERYONE');

    expect(outcome.name).toBe('post.failed');
    expect(outcome.data.reason).toContain('choose one of SELF_ONLY');
  });
});
