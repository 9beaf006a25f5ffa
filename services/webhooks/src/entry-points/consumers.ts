import { Events, WEBHOOK_EVENT_TYPES } from '@postbus/contracts';
import type { Bus, EventConsumer } from '@postbus/bus';
import { fanOutEvent, fanOutPublished, type FanOutPorts } from '../events/fan-out-event.use-case';

/** Short first retries: they cover posts applying the same event a moment later; longer ones cover outages. */
export const EVENT_RETRY_DELAYS_MS = [200, 1000, 5000, 30_000, 120_000, 600_000];
/** Readings of the event during which a post that does not show it yet is read again rather than completed from the event. */
const WAIT_FOR_POSTS_ATTEMPTS = 3;

/**
 * Every event a webhook may carry → deliveries. A body that breaks its contract goes to dead letters;
 * the webhook events no contract describes yet are passed on as they come.
 */
export function consumeEvents(bus: Bus, ports: FanOutPorts): EventConsumer {
  const opts = (attempt: number) => ({ mayWaitForPosts: attempt <= WAIT_FOR_POSTS_ATTEMPTS });
  return bus
    .consume({
      queue: 'webhooks.events',
      events: [...WEBHOOK_EVENT_TYPES],
      retryDelaysMs: EVENT_RETRY_DELAYS_MS,
      prefetch: 16,
      handler: (event, { attempt }) => fanOutEvent(ports, event, opts(attempt)),
    })
    .on(Events.postPublished, (event, { attempt }) => fanOutPublished(ports, event, opts(attempt)))
    .on(Events.postFailed, (event, { attempt }) => fanOutEvent(ports, event, opts(attempt)));
}
