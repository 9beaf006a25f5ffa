import { compile, describeErrors, Events, WEBHOOK_EVENT_TYPES } from '@postbus/contracts';
import { PermanentError, type Bus, type EventConsumer } from '@postbus/bus';
import { fanOutEvent, type FanOutPorts } from '../events/fan-out-event.use-case';

/** Short first retries: they cover posts applying the same event a moment later; longer ones cover outages. */
export const EVENT_RETRY_DELAYS_MS = [200, 1000, 5000, 30_000, 120_000, 600_000];
/** Readings of the event during which a post that does not show it yet is read again rather than completed from the event. */
const WAIT_FOR_POSTS_ATTEMPTS = 3;

const contracts: Record<string, (typeof Events)[keyof typeof Events]['schema']> = {
  [Events.postPublished.name]: Events.postPublished.schema,
  [Events.postFailed.name]: Events.postFailed.schema,
};

/** Every event a webhook may carry → deliveries. A body that breaks its contract goes to dead letters. */
export function consumeEvents(bus: Bus, ports: FanOutPorts): EventConsumer {
  return bus.consume({
    queue: 'webhooks.events',
    events: [...WEBHOOK_EVENT_TYPES],
    retryDelaysMs: EVENT_RETRY_DELAYS_MS,
    prefetch: 16,
    async handler(event, { attempt }) {
      const schema = contracts[event.name];
      if (schema) {
        const check = compile(schema);
        if (!check(event.data)) throw new PermanentError(`${event.name} does not match its contract: ${describeErrors(check.errors)}`);
      }
      await fanOutEvent(ports, event, { mayWaitForPosts: attempt <= WAIT_FOR_POSTS_ATTEMPTS });
    },
  });
}
