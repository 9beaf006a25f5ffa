import { Rpc } from '@postbus/contracts';
import { createMastodonStatus } from '@postbus/platforms';
import { bodiesOf, calls, lastRequestSeq, startMediaServer, type MediaServer } from '@postbus/testing';
import { mastodonAdapter } from '../src/publishing/adapters/mastodon.adapter';
import type { AdapterConfig } from '../src/publishing/adapters/adapter-config';
import type { PublishContext } from '../src/publishing/adapters/platform-adapter';
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
  h = await startPublisherHarness('pub_mastodon', { env: { PLATFORM_REQUEST_TIMEOUT_MS: '1500' } });
});
afterAll(async () => {
  await h?.stop();
  await media?.close();
});

/** A Mastodon profile as connections holds one: `{accountId}@{instance}`, `username@instance`, the account's token. */
async function mastodonProfile(
  username: string,
  instance = 'mastodon.example',
): Promise<SandboxProfile & { instance: string }> {
  const user = (await sandboxControl(h.sandbox, 'POST', '/users', { platform: 'mastodon', handle: username, instance }))
    .body as { userId: string; accessToken: string };
  const profile = await h.bus.rpc.call(Rpc.connectionsSeedProfile, {
    accountId: h.accountId,
    platform: 'mastodon',
    platformUserId: `${user.userId}@${instance}`,
    handle: `${username}@${instance}`,
    accessToken: user.accessToken,
  });
  return {
    profileId: profile.id,
    userId: user.userId,
    accessToken: user.accessToken,
    handle: `${username}@${instance}`,
    platform: 'mastodon',
    instance,
  };
}

const mine = async (p: { userId: string }) =>
  (await publishedOn(h.sandbox, 'mastodon')).filter((item) => item.userId === p.userId);

describe('publishing to Mastodon', () => {
  test("when a text post is due, then the instance limits are read and one status is posted on the profile's instance under the Idempotency-Key saved beforehand", async () => {
    const m = await mastodonProfile('text_toot', 'social.example');
    const since = lastRequestSeq(h.sandbox);
    const job = h.due(m, {
      caption: 'Hello fediverse',
      platformMeta: { mastodon: { spoilerText: 'news', visibility: 'unlisted', language: 'en' } },
    });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    const { lines, requests } = await calls(h.sandbox, 'mastodon', m.userId, since);
    const [item] = await mine(m);
    expect(lines).toEqual([
      'GET /mastodon/social.example/api/v2/instance',
      'POST /mastodon/social.example/api/v1/statuses',
    ]);
    expect(bodiesOf(requests, 'POST', '/api/v1/statuses')).toEqual([
      { status: 'Hello fediverse', spoiler_text: 'news', visibility: 'unlisted', language: 'en' },
    ]);
    const checkpoint = (await h.attempt(job.postId))?.checkpoint;
    expect(requests[1].headers['idempotency-key']).toBe(checkpoint.idempotencyKey);
    expect(outcome).toMatchObject({
      name: 'post.published',
      data: { platformPostId: item.id, permalink: `https://social.example/@text_toot/${item.id}` },
    });
  });

  test('when the instance is still processing the media, then the status waits for it and carries each item with its description', async () => {
    const m = await mastodonProfile('photo_toot');
    h.sandbox.state.mastodon.limits.mediaProcessingMs = 300;
    try {
      const since = lastRequestSeq(h.sandbox);
      const job = h.due(m, {
        caption: 'Two views',
        mediaUrls: [media.link('a.jpg', 3000), media.link('b.png', 2000)],
        platformMeta: { mastodon: { altTexts: ['The harbour at dawn'] } },
      });

      await h.publish(job);
      const outcome = await h.outcome(job.postId);

      const { lines, requests } = await calls(h.sandbox, 'mastodon', m.userId, since);
      const [item] = await mine(m);
      expect(outcome.name).toBe('post.published');
      expect(lines.slice(0, 3)).toEqual([
        'GET /mastodon/mastodon.example/api/v2/instance',
        'POST /mastodon/mastodon.example/api/v2/media',
        'POST /mastodon/mastodon.example/api/v2/media',
      ]);
      expect(lines.filter((l) => l.startsWith('GET /mastodon/mastodon.example/api/v1/media/')).length).toBeGreaterThan(
        0,
      );
      expect(lines.at(-1)).toBe('POST /mastodon/mastodon.example/api/v1/statuses');
      // Each upload is one multipart body: the file whole, with its description part.
      const [first, second] = requests.filter((r) => r.path.endsWith('/api/v2/media')).map((r) => r.bodyBytes!);
      expect(first).toBeGreaterThan(3000);
      expect(second).toBeGreaterThan(2000);
      expect(second).toBeLessThan(3000);
      expect(item).toMatchObject({
        text: 'Two views',
        mediaType: 'image',
        bytes: 5000,
        details: { alts: ['The harbour at dawn', null] },
      });
    } finally {
      h.sandbox.state.mastodon.limits.mediaProcessingMs = 0;
    }
  });

  test('when the status answer is lost, then the retry sends the same Idempotency-Key and the instance answers the first status: one status, not two', async () => {
    const m = await mastodonProfile('lossy_toot');
    await sandboxControl(h.sandbox, 'POST', '/faults', {
      platform: 'mastodon',
      mode: 'timeout',
      operation: 'publish',
      applied: true,
    });
    const since = lastRequestSeq(h.sandbox);
    const job = h.due(m, { caption: 'answer lost' });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    const { lines, requests } = await calls(h.sandbox, 'mastodon', m.userId, since);
    const items = await mine(m);
    expect(items).toHaveLength(1);
    expect(lines.filter((l) => l.includes('/statuses'))).toEqual([
      'POST /mastodon/mastodon.example/api/v1/statuses',
      'POST /mastodon/mastodon.example/api/v1/statuses',
    ]);
    const keys = requests.filter((r) => r.path.endsWith('/statuses')).map((r) => r.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(1);
    expect(outcome).toMatchObject({
      name: 'post.published',
      data: { platformPostId: items[0].id, permalink: items[0].permalink },
    });
  });

  test("when the text is over this instance's own limit, then the post fails before anything is uploaded or posted", async () => {
    const m = await mastodonProfile('terse_toot');
    h.sandbox.state.mastodon.limits.maxCharacters = 100;
    try {
      const since = lastRequestSeq(h.sandbox);
      const job = h.due(m, { caption: 'x'.repeat(150), mediaUrls: [media.link('c.jpg', 1000)] });

      await h.publish(job);
      const outcome = await h.outcome(job.postId);

      expect(outcome).toMatchObject({
        name: 'post.failed',
        data: { reason: expect.stringMatching(/150 characters .* allows 100/) },
      });
      expect((await calls(h.sandbox, 'mastodon', m.userId, since)).lines).toEqual([
        'GET /mastodon/mastodon.example/api/v2/instance',
      ]);
    } finally {
      h.sandbox.state.mastodon.limits.maxCharacters = 500;
    }
  });
});

describe('a token the instance refuses', () => {
  test('when the person revoked Postbus on their instance, then the post fails asking for a reconnect and nothing is posted', async () => {
    const m = await mastodonProfile('revoked_toot');
    await sandboxControl(h.sandbox, 'POST', `/users/${m.userId}/revoke`);
    const job = h.due(m, { caption: 'after revoking' });

    await h.publish(job);
    const outcome = await h.outcome(job.postId);

    expect(outcome).toMatchObject({
      name: 'post.failed',
      data: { reason: expect.stringMatching(/connect the account again|reconnect/i) },
    });
    expect(await mine(m)).toEqual([]);
  });
});

describe('settling a lost answer once the Idempotency-Key may have expired', () => {
  const cfg = { mastodonInstanceUrl: '', requestTimeoutMs: 5000 } as AdapterConfig;
  const ctxOf = (m: SandboxProfile, checkpoint: Record<string, unknown>, caption: string): PublishContext => ({
    job: h.due(m, { caption }),
    creds: {
      profileId: m.profileId,
      platform: 'mastodon',
      platformUserId: `${m.userId}@mastodon.example`,
      handle: m.handle,
      accessToken: m.accessToken,
      status: 'active',
    },
    mediaUrls: [],
    storedMedia: null,
    checkpoint,
    save: async () => undefined,
    progress: () => undefined,
  });

  test("when the key was saved over an hour ago, then the account's statuses are searched: the one posted is found by its source text, and none found means a new key", async () => {
    cfg.mastodonInstanceUrl = `${h.sandbox.url}/mastodon/{instance}`;
    const m = await mastodonProfile('late_toot');
    const api = {
      instances: { baseUrlTemplate: cfg.mastodonInstanceUrl },
      instance: 'mastodon.example',
      accessToken: m.accessToken,
    };
    const keySavedAt = Date.now() - 2 * 3_600_000;
    const posted = await createMastodonStatus(api, 'old-key', { status: 'posted long ago' });
    const adapter = mastodonAdapter(cfg);

    const found = await adapter.resolve(
      ctxOf(m, { media: [], idempotencyKey: 'old-key', keySavedAt, phase: 'publishing' }, 'posted long ago'),
    );
    const missing = await adapter.resolve(
      ctxOf(m, { media: [], idempotencyKey: 'other-key', keySavedAt, phase: 'publishing' }, 'never posted'),
    );
    const recent = await adapter.resolve(
      ctxOf(m, { media: [], idempotencyKey: 'new-key', keySavedAt: Date.now(), phase: 'publishing' }, 'never posted'),
    );

    expect(found).toEqual({
      kind: 'published',
      platformPostId: posted.id,
      permalink: `https://mastodon.example/@late_toot/${posted.id}`,
    });
    expect(missing).toEqual({ kind: 'continue', checkpoint: { media: [] } });
    expect(recent).toEqual({
      kind: 'continue',
      checkpoint: { media: [], idempotencyKey: 'new-key', keySavedAt: expect.any(Number) },
    });
  });
});
