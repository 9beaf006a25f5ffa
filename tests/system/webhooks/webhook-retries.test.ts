import { createTestEnv, freePort, verifiedBy, waitFor, type SeededAccount, type TestEnv } from '@postbus/testing';
import { api } from '../support/posts-api';
import { startSystem, type RunningSystem } from '../support/system';
import { Receivers } from './receiver';
import { createWebhook, deliveriesOf, publishPost } from './webhooks-api';

const SCHEDULE_MS = [100, 200, 400, 800, 1600];

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
const receivers = new Receivers();

beforeAll(async () => {
  env = await createTestEnv('webhooks_retries');
  system = await startSystem(env, { WEBHOOK_RETRY_SCHEDULE_MS: SCHEDULE_MS.join(','), WEBHOOK_POLL_MS: '50' });
  account = await system.seedAccount();
});
afterAll(async () => {
  await receivers.close();
  await system?.stop();
  await env?.drop();
});

const receiver = (port = 0) => receivers.listen(port);

/** The endpoint's only delivery, once `ready` says it is in the wanted state. */
const theDelivery = (webhookId: string, ready: (d: any) => boolean, what: string) =>
  waitFor(
    async () => {
      const [d] = await deliveriesOf(system, account.apiKey, webhookId);
      return d && ready(d) ? d : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 40, what },
  );

describe('retrying failed deliveries', () => {
  test('when the endpoint keeps failing, then attempts follow the retry schedule and the delivery fails after the last one', async () => {
    const hooks = await receiver();
    hooks.status = 503;
    const webhook = await createWebhook(system, account.apiKey, { url: hooks.url, events: ['post.published'] });
    await publishPost(system, account.apiKey);

    const delivery = await theDelivery(webhook.id, (d) => d.status === 'failed', 'the delivery to fail for good');
    expect(delivery.attemptCount).toBe(SCHEDULE_MS.length + 1);
    expect(delivery.nextAttemptAt).toBeNull();
    expect(delivery.responseCode).toBe(503);
    const times = delivery.attempts.map((a: { attemptedAt: string }) => Date.parse(a.attemptedAt));
    SCHEDULE_MS.forEach((delay, i) => expect(times[i + 1] - times[i]).toBeGreaterThanOrEqual(delay));
    expect(
      delivery.attempts.every(
        (a: { responseCode: number; error: string }) => a.responseCode === 503 && a.error === 'HTTP 503',
      ),
    ).toBe(true);

    // Every attempt is the same message (same webhook-id and body), freshly signed.
    expect(hooks.received).toHaveLength(SCHEDULE_MS.length + 1);
    expect(new Set(hooks.received.map((r) => r.id))).toEqual(new Set([delivery.id]));
    expect(new Set(hooks.received.map((r) => r.body)).size).toBe(1);
    expect(hooks.received.every((r) => verifiedBy(webhook.secret, hooks.headersOf(r), r.body))).toBe(true);
    expect((await api(system, `/api/v1/webhooks/${webhook.id}`, { key: account.apiKey })).body.status).toBe('enabled');
  });

  test('when the receiver is down and comes back, then the delivery arrives once it is back, exactly once', async () => {
    const port = await freePort();
    const webhook = await createWebhook(system, account.apiKey, {
      url: `http://127.0.0.1:${port}/hooks`,
      events: ['post.published'],
    });
    await publishPost(system, account.apiKey);

    const down = await theDelivery(webhook.id, (d) => d.attemptCount >= 2, 'two failed attempts');
    expect(down.status).toBe('pending');
    expect(
      down.attempts
        .slice(0, 2)
        .every((a: { responseCode: null; error: string }) => a.responseCode === null && /ECONNREFUSED/.test(a.error)),
    ).toBe(true);

    const hooks = await receiver(port);
    const delivered = await theDelivery(
      webhook.id,
      (d) => d.status !== 'pending',
      'the delivery once the receiver is back',
    );
    expect(delivered.status).toBe('succeeded');
    expect(delivered.nextAttemptAt).toBeNull();
    expect(delivered.deliveredAt).toEqual(expect.any(String));
    expect(delivered.attempts.at(-1)).toMatchObject({ responseCode: 200, error: null });
    expect(hooks.received).toHaveLength(1);
    expect(hooks.received[0].id).toBe(delivered.id);
    expect(verifiedBy(webhook.secret, hooks.headersOf(hooks.received[0]), hooks.received[0].body)).toBe(true);
  });

  test('when a failed delivery is retried by hand, then it is sent once more with the same webhook-id and succeeds', async () => {
    const hooks = await receiver();
    hooks.status = (n) => (n <= SCHEDULE_MS.length + 1 ? 500 : 204);
    const webhook = await createWebhook(system, account.apiKey, { url: hooks.url, events: ['post.published'] });
    await publishPost(system, account.apiKey);
    const failed = await theDelivery(webhook.id, (d) => d.status === 'failed', 'the delivery to fail for good');

    const retried = await api(system, `/api/v1/webhooks/${webhook.id}/deliveries/${failed.id}/retry`, {
      method: 'POST',
      key: account.apiKey,
    });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ id: failed.id, status: 'pending', attemptCount: failed.attemptCount });
    const done = await theDelivery(webhook.id, (d) => d.status !== 'pending', 'the retried delivery');
    expect(done).toMatchObject({ status: 'succeeded', responseCode: 204, attemptCount: failed.attemptCount + 1 });
    expect(hooks.received).toHaveLength(failed.attemptCount + 1);
    expect(hooks.received.at(-1)!.id).toBe(failed.id);
  });
});
