import { createTestEnv, waitFor, type TestEnv } from '@postbus/testing';
import { api } from '../support/posts-api';
import { startSystem, type RunningSystem } from '../support/system';
import { Receiver } from './receiver';
import { createWebhook, deliveriesOf, publishPost } from './webhooks-api';

// Retries every 100 ms, and an endpoint failing for 0.0002 hours (0.72 s) is disabled.
const DISABLE_AFTER_HOURS = 0.0002;

let env: TestEnv;
let system: RunningSystem;
let hooks: Receiver;

beforeAll(async () => {
  env = await createTestEnv('webhooks_disable');
  system = await startSystem(env, {
    WEBHOOK_RETRY_SCHEDULE_MS: Array(40).fill(100).join(','),
    WEBHOOK_DISABLE_AFTER_HOURS: String(DISABLE_AFTER_HOURS),
    WEBHOOK_POLL_MS: '50',
  });
  hooks = await new Receiver().listen();
});
afterAll(async () => {
  await hooks?.close();
  await system?.stop();
  await env?.drop();
});

describe('disabling an endpoint that keeps failing', () => {
  test('when every delivery fails for the configured time, then the endpoint is disabled with the reason on GET, and resuming it delivers again', async () => {
    const account = await system.seedAccount();
    hooks.status = 500;
    const webhook = await createWebhook(system, account.apiKey, { url: hooks.url, events: ['post.published'] });
    await publishPost(system, account.apiKey);

    const disabled = await waitFor(
      async () => {
        const w = (await api(system, `/api/v1/webhooks/${webhook.id}`, { key: account.apiKey })).body;
        return w.status === 'disabled' ? w : undefined;
      },
      { timeoutMs: 20_000, what: 'the endpoint to be disabled' },
    );
    expect(disabled.disabledReason).toMatch(/^Every delivery failed for \d+ seconds \(since .+; last: HTTP 500\)/);
    expect(disabled.disabledAt).toEqual(expect.any(String));

    // Nothing more is attempted: the delivery in flight ended with the endpoint.
    const [delivery] = await deliveriesOf(system, account.apiKey, webhook.id);
    expect(delivery.status).not.toBe('pending');
    // Disabled when the failing attempt that ended last had ended at least the configured time after the first began to fail.
    const first = Date.parse(delivery.attempts[0].attemptedAt);
    expect(Date.parse(disabled.disabledAt) - first).toBeGreaterThanOrEqual(DISABLE_AFTER_HOURS * 3600_000);
    const sent = hooks.received.length;
    expect(sent).toBe(delivery.attemptCount);

    // A disabled endpoint is not given new events.
    await publishPost(system, account.apiKey);
    const other = await system.seedAccount();
    const otherHooks = await new Receiver().listen();
    try {
      const probe = await createWebhook(system, other.apiKey, { url: otherHooks.url, events: ['post.published'] });
      await publishPost(system, other.apiKey);
      await waitFor(
        async () =>
          (await deliveriesOf(system, other.apiKey, probe.id))[0]?.status === 'succeeded' ? true : undefined,
        { what: 'a later event to be delivered elsewhere' },
      );
    } finally {
      await otherHooks.close();
    }
    expect(await deliveriesOf(system, account.apiKey, webhook.id)).toHaveLength(1);

    // Resumed, with the receiver fixed: the stopped delivery is sent again by hand and arrives.
    hooks.status = 200;
    const resumed = await api(system, `/api/v1/webhooks/${webhook.id}`, {
      method: 'PATCH',
      key: account.apiKey,
      body: { enabled: true },
    });
    expect(resumed.body).toMatchObject({ status: 'enabled', disabledReason: null, disabledAt: null });
    await api(system, `/api/v1/webhooks/${webhook.id}/deliveries/${delivery.id}/retry`, {
      method: 'POST',
      key: account.apiKey,
    });
    const done = await waitFor(
      async () => {
        const [d] = await deliveriesOf(system, account.apiKey, webhook.id);
        return d.status === 'succeeded' ? d : undefined;
      },
      { what: 'the retried delivery' },
    );
    expect(done.attemptCount).toBe(delivery.attemptCount + 1);
    expect(hooks.received).toHaveLength(sent + 1);
  });
});
