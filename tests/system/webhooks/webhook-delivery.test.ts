import { createTestEnv, signaturesMadeBy, verifiedBy, waitFor, type TestEnv } from '@postbus/testing';
import { api } from '../support/posts-api';
import { startSystem, type RunningSystem } from '../support/system';
import { Receivers } from './receiver';
import { createWebhook, deliveriesOf, publishPost, schedulePost } from './webhooks-api';

let env: TestEnv;
let system: RunningSystem;
const receivers = new Receivers();

beforeAll(async () => {
  env = await createTestEnv('webhooks_delivery');
  system = await startSystem(env, { WEBHOOK_POLL_MS: '50' });
});
afterAll(async () => {
  await receivers.close();
  await system?.stop();
  await env?.drop();
});

const receiver = () => receivers.listen();

const settled = (system: RunningSystem, key: string, webhookId: string, count: number) =>
  waitFor(
    async () => {
      const list = await deliveriesOf(system, key, webhookId);
      return list.length >= count && list.every((d) => d.status !== 'pending') ? list : undefined;
    },
    { timeoutMs: 15_000, what: `${count} settled deliveries` },
  );

describe('delivering publish results', () => {
  test('when a post is published, then the subscribed endpoint receives post.published once, signed, with the post as GET returns it', async () => {
    const account = await system.seedAccount();
    const hooks = await receiver();
    const failuresOnly = await receiver();
    const webhook = await createWebhook(system, account.apiKey, {
      url: hooks.url,
      events: ['post.published', 'post.failed'],
    });
    await createWebhook(system, account.apiKey, { url: failuresOnly.url, events: ['post.failed'] });

    const postId = await publishPost(system, account.apiKey);
    const [delivery] = await settled(system, account.apiKey, webhook.id, 1);
    const post = (await api(system, `/api/v1/posts/${postId}`, { key: account.apiKey })).body;
    expect(post.status).toBe('posted');

    expect(hooks.received).toHaveLength(1);
    const got = hooks.received[0];
    expect(got.contentType).toBe('application/json');
    expect(got.json).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'post.published',
      timestamp: expect.any(String),
      data: { post },
    });
    expect(verifiedBy(webhook.secret, hooks.headersOf(got), got.body)).toBe(true);
    expect(got.id).toBe(delivery.id);
    expect(got.timestamp).toMatch(/^\d{10}$/);
    expect(delivery).toMatchObject({
      webhookId: webhook.id,
      eventType: 'post.published',
      eventId: got.json.id,
      status: 'succeeded',
      responseCode: 200,
      attemptCount: 1,
      nextAttemptAt: null,
    });
    expect(delivery.attempts).toEqual([
      { attemptedAt: expect.any(String), durationMs: expect.any(Number), responseCode: 200, error: null },
    ]);
    expect(failuresOnly.received).toHaveLength(0);
  });

  test('when the platform refuses a post, then post.failed carries the post with its failedReason', async () => {
    const account = await system.seedAccount();
    const hooks = await receiver();
    const webhook = await createWebhook(system, account.apiKey, { url: hooks.url, events: ['post.failed'] });
    const fault = await fetch(`${system.sandboxUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ platform: 'threads', mode: 'error', code: 100, count: 1 }),
    });
    expect(fault.ok).toBe(true);

    const postId = await publishPost(system, account.apiKey);
    await settled(system, account.apiKey, webhook.id, 1);
    const post = (await api(system, `/api/v1/posts/${postId}`, { key: account.apiKey })).body;
    expect(post.status).toBe('failed');
    expect(hooks.received).toHaveLength(1);
    expect(hooks.received[0].json).toMatchObject({ type: 'post.failed', data: { post } });
    expect(hooks.received[0].json.data.post.failedReason).toEqual(expect.any(String));
    expect(verifiedBy(webhook.secret, hooks.headersOf(hooks.received[0]), hooks.received[0].body)).toBe(true);
  });

  test('when a post.published carries a warning that fewer people can see the post than asked (YouTube kept it private), then post.restricted is delivered too, with the post and its warnings', async () => {
    const account = await system.seedAccount();
    const restrictedOnly = await receiver();
    const both = await receiver();
    const restrictedHook = await createWebhook(system, account.apiKey, {
      url: restrictedOnly.url,
      events: ['post.restricted'],
    });
    const bothHook = await createWebhook(system, account.apiKey, {
      url: both.url,
      events: ['post.published', 'post.restricted'],
    });
    const [locked, plain] = [await schedulePost(system, account.apiKey), await schedulePost(system, account.apiKey)];
    const warnings = [{ code: 'youtube_private_lock', message: 'The video is on YouTube but private.' }];
    const publishedEvent = (postId: string, extra: Record<string, unknown>) => ({
      name: 'post.published',
      data: {
        postId,
        accountId: account.accountId,
        profileId: 'prf_x',
        platform: 'youtube',
        platformPostId: 'vid1',
        permalink: 'https://www.youtube.com/watch?v=vid1',
        publishedAt: new Date().toISOString(),
        ...extra,
      },
    });

    await system.bus.events.publish([publishedEvent(locked, { warnings }), publishedEvent(plain, {})]);
    await settled(system, account.apiKey, bothHook.id, 3);
    await settled(system, account.apiKey, restrictedHook.id, 1);

    const restricted = restrictedOnly.received.map((r) => r.json);
    expect(restricted).toEqual([
      {
        id: expect.stringMatching(/^evt_/),
        type: 'post.restricted',
        timestamp: expect.any(String),
        data: { post: expect.objectContaining({ id: locked, status: 'posted', warnings }) },
      },
    ]);
    const seen = both.received.map((r) => [r.json.type, r.json.data.post.id]).sort();
    expect(seen).toEqual(
      [
        ['post.published', locked],
        ['post.published', plain],
        ['post.restricted', locked],
      ].sort(),
    );
    expect(new Set(both.received.map((r) => r.json.id)).size).toBe(3);
  });

  test('when another account has endpoints for the same events, then nothing of this account reaches them', async () => {
    const mine = await system.seedAccount();
    const theirs = await system.seedAccount();
    const myHooks = await receiver();
    const theirHooks = await receiver();
    const myWebhook = await createWebhook(system, mine.apiKey, {
      url: myHooks.url,
      events: ['post.published', 'post.failed'],
    });
    const theirWebhook = await createWebhook(system, theirs.apiKey, {
      url: theirHooks.url,
      events: ['post.published', 'post.failed', 'post.scheduled'],
    });

    await publishPost(system, mine.apiKey);
    await settled(system, mine.apiKey, myWebhook.id, 1);
    expect(myHooks.received).toHaveLength(1);
    // Deliveries of one event are written together: had one been meant for them, it would be listed by now.
    expect(await deliveriesOf(system, theirs.apiKey, theirWebhook.id)).toEqual([]);
    expect(theirHooks.received).toHaveLength(0);
  });

  test('when the secret was rotated, then deliveries carry both signatures, the new one first', async () => {
    const account = await system.seedAccount();
    const hooks = await receiver();
    const webhook = await createWebhook(system, account.apiKey, { url: hooks.url, events: ['post.published'] });
    const rotated = (
      await api(system, `/api/v1/webhooks/${webhook.id}/rotate-secret`, { method: 'POST', key: account.apiKey })
    ).body;

    await publishPost(system, account.apiKey);
    await settled(system, account.apiKey, webhook.id, 1);
    const got = hooks.received[0];
    expect(got.signature.split(' ')).toHaveLength(2);
    expect(signaturesMadeBy(rotated.secret, hooks.headersOf(got), got.body)).toEqual([0]);
    expect(signaturesMadeBy(webhook.secret, hooks.headersOf(got), got.body)).toEqual([1]);
  });

  test("when an event does not name its account (announced before it did), then the post's own account is found and only it receives the event", async () => {
    const owner = await system.seedAccount();
    const stranger = await system.seedAccount();
    const ownerHooks = await receiver();
    const strangerHooks = await receiver();
    const ownerWebhook = await createWebhook(system, owner.apiKey, { url: ownerHooks.url, events: ['post.scheduled'] });
    const strangerWebhook = await createWebhook(system, stranger.apiKey, {
      url: strangerHooks.url,
      events: ['post.scheduled'],
    });
    const postId = await schedulePost(system, owner.apiKey);

    await system.bus.events.publish([{ name: 'post.scheduled', data: { postId } }]);
    await settled(system, owner.apiKey, ownerWebhook.id, 1);
    const post = (await api(system, `/api/v1/posts/${postId}`, { key: owner.apiKey })).body;
    expect(ownerHooks.received.map((r) => r.json)).toEqual([
      { id: expect.any(String), type: 'post.scheduled', timestamp: expect.any(String), data: { post } },
    ]);
    expect(await deliveriesOf(system, stranger.apiKey, strangerWebhook.id)).toEqual([]);
    expect(strangerHooks.received).toHaveLength(0);
  });

  test('when the same event is heard twice, then it is delivered once', async () => {
    const account = await system.seedAccount();
    const hooks = await receiver();
    const webhook = await createWebhook(system, account.apiKey, { url: hooks.url, events: ['post.cancelled'] });
    const postId = await schedulePost(system, account.apiKey);
    const cancelled = await api(system, `/api/v1/posts/${postId}`, { method: 'DELETE', key: account.apiKey });
    expect(cancelled.body.status).toBe('cancelled');

    const event = {
      id: '6f1c1e8e-3a43-4c55-9d0b-0a5bb1f1c0de',
      name: 'post.cancelled',
      data: { postId, accountId: account.accountId },
    };
    await system.bus.events.publish([event]);
    await settled(system, account.apiKey, webhook.id, 1);
    await system.bus.events.publish([event]);
    // A later, different event is delivered after the repeated one would have been.
    await system.bus.events.publish([{ ...event, id: undefined }]);
    await settled(system, account.apiKey, webhook.id, 2);
    const ids = hooks.received.map((r) => r.json.id);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    expect(ids).toContain('evt_6f1c1e8e3a434c559d0b0a5bb1f1c0de');
    expect(hooks.received[0].json.data.post).toMatchObject({ id: postId, status: 'cancelled' });

    // Pages of one, newest first, joined by nextCursor.
    const first = await api(system, `/api/v1/webhooks/${webhook.id}/deliveries?limit=1`, { key: account.apiKey });
    expect(first.body.data).toHaveLength(1);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await api(
      system,
      `/api/v1/webhooks/${webhook.id}/deliveries?limit=1&cursor=${first.body.nextCursor}`,
      { key: account.apiKey },
    );
    expect(second.body.data).toHaveLength(1);
    expect(second.body.nextCursor).toBeNull();
    expect([second.body.data[0].eventId, first.body.data[0].eventId]).toEqual(hooks.received.map((r) => r.json.id));
  });
});
