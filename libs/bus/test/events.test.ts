import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@postbus/contracts';
import {
  EventConsumer,
  EventPublisher,
  PermanentError,
  TransientError,
  type BusConnection,
  type ConsumerOptions,
} from '../src';
import { Operator, openTestBus, randomNamespace, sleep } from './support';

const namespace = randomNamespace('events');
const DELAYS = [50, 100];
let bus: BusConnection;
let publisher: EventPublisher;
let op: Operator;
const consumers: EventConsumer[] = [];
const queues: string[] = [];

beforeAll(async () => {
  bus = await openTestBus(namespace);
  publisher = await EventPublisher.create(bus);
  op = await Operator.open();
});

afterAll(async () => {
  for (const c of consumers) await c.stop();
  await bus?.close();
  await op?.cleanUp(queues, [`${namespace}.events`]);
});

interface Attempt {
  attempt: number;
  at: number;
  event: EventEnvelope;
}

/** Starts a consumer on its own queue and event name; returns what it saw. */
async function startConsumer(
  local: string,
  handler: (attempt: number) => Promise<void>,
  extra: Partial<ConsumerOptions> = {},
) {
  const attempts: Attempt[] = [];
  const eventName = `test.${local}`;
  const consumer = new EventConsumer(bus, {
    queue: local,
    events: [eventName],
    retryDelaysMs: DELAYS,
    ...extra,
    handler: async (event, meta) => {
      attempts.push({ attempt: meta.attempt, at: Date.now(), event });
      await handler(meta.attempt);
    },
  });
  await consumer.start();
  consumers.push(consumer);
  queues.push(consumer.queue, consumer.deadQueue, ...DELAYS.map((d) => `${consumer.queue}.retry.${d}`));
  const publish = async (data: unknown = { n: 1 }) => {
    const id = randomUUID();
    await publisher.publish([{ id, name: eventName, data }]);
    return id;
  };
  return { consumer, attempts, publish };
}

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}

describe('event consumer retries and dead letters', () => {
  it.each([
    ['a plain Error', () => new Error('platform timed out')],
    ['a TransientError', () => new TransientError('platform timed out', 10)],
  ])(
    'when the handler keeps throwing %s, then it is retried with x-attempt increasing and finally dead-lettered with x-error',
    async (label, makeError) => {
      const local = label.includes('Transient') ? 'retry-transient' : 'retry-plain';
      const { consumer, attempts, publish } = await startConsumer(local, async () => {
        throw makeError();
      });

      const id = await publish({ hello: 'world' });
      const dead = await op.take(consumer.deadQueue);

      expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
      expect(attempts.every((a) => a.event.id === id)).toBe(true);
      expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(DELAYS[0] - 5);
      expect(attempts[2].at - attempts[1].at).toBeGreaterThanOrEqual(DELAYS[1] - 5);
      expect(dead.properties.headers?.['x-error']).toBe('platform timed out');
      expect(dead.properties.headers?.['x-attempt']).toBe(3);
      expect(dead.properties.messageId).toBe(id);
      expect(JSON.parse(dead.content.toString())).toMatchObject({
        id,
        name: `test.${local}`,
        data: { hello: 'world' },
      });
      await sleep(150);
      expect(attempts).toHaveLength(3);
      expect(await op.depth(consumer.deadQueue)).toBe(0);
    },
  );

  it('when the handler throws a PermanentError, then the event goes straight to dead letters without retry', async () => {
    const { consumer, attempts, publish } = await startConsumer('permanent', async () => {
      throw new PermanentError('caption too long for this platform');
    });

    const id = await publish();
    const dead = await op.take(consumer.deadQueue);

    expect(dead.properties.messageId).toBe(id);
    expect(dead.properties.headers?.['x-error']).toBe('caption too long for this platform');
    expect(dead.properties.headers?.['x-attempt']).toBe(1);
    await sleep(DELAYS[0] + DELAYS[1] + 100);
    expect(attempts.map((a) => a.attempt)).toEqual([1]);
  });

  it('when the handler succeeds on the 2nd attempt, then the event is acked and never dead-lettered', async () => {
    const { consumer, attempts, publish } = await startConsumer('second-time', async (attempt) => {
      if (attempt === 1) throw new TransientError('429 from platform');
    });

    await publish();
    await until(() => attempts.length === 2);
    await sleep(DELAYS[1] + 150);
    await consumer.stop(); // an unacked message would now be back on the queue

    expect(attempts.map((a) => a.attempt)).toEqual([1, 2]);
    expect(await op.depth(consumer.deadQueue)).toBe(0);
    expect(await op.depth(consumer.queue)).toBe(0);
    for (const d of DELAYS) expect(await op.depth(`${consumer.queue}.retry.${d}`)).toBe(0);
  });

  it('when a handler succeeds at once, then it sees attempt 1 and the envelope as published, and the queue is left empty', async () => {
    const { consumer, attempts, publish } = await startConsumer('happy', async () => undefined);

    const id = await publish({ postId: 'pst_1' });
    await until(() => attempts.length === 1);
    await consumer.stop();

    expect(attempts[0].attempt).toBe(1);
    expect(attempts[0].event).toMatchObject({ id, name: 'test.happy', data: { postId: 'pst_1' } });
    expect(Date.parse(attempts[0].event.occurredAt)).not.toBeNaN();
    expect(await op.depth(consumer.queue)).toBe(0);
  });

  it('when the message is not JSON, then it is dead-lettered without calling the handler', async () => {
    const { consumer, attempts } = await startConsumer('garbage', async () => undefined);

    op.channel.publish(`${namespace}.events`, 'test.garbage', Buffer.from('{not json'));
    const dead = await op.take(consumer.deadQueue);

    expect(dead.content.toString()).toBe('{not json');
    expect(dead.properties.headers?.['x-error']).toMatch(/JSON/);
    expect(attempts).toHaveLength(0);
  });

  it('when two consumers compete on one queue, then each event is handled once', async () => {
    const handled: string[] = [];
    const opts = {
      queue: 'competing',
      events: ['test.competing'],
      retryDelaysMs: DELAYS,
      handler: async (e: EventEnvelope) => void handled.push(e.id),
    };
    const a = new EventConsumer(bus, opts);
    const b = new EventConsumer(bus, opts);
    await a.start();
    await b.start();
    consumers.push(a, b);
    queues.push(a.queue, a.deadQueue, ...DELAYS.map((d) => `${a.queue}.retry.${d}`));
    const ids = Array.from({ length: 40 }, () => randomUUID());

    await publisher.publish(ids.map((id) => ({ id, name: 'test.competing', data: {} })));
    await until(() => handled.length >= ids.length);
    await sleep(100);

    expect([...handled].sort()).toEqual([...ids].sort());
  });

  it('when the consumer is stopped while a handler runs, then stop waits for it and the event is acked, not redelivered', async () => {
    let finished = false;
    const { consumer, attempts, publish } = await startConsumer('drain', async () => {
      await sleep(300);
      finished = true;
    });

    await publish();
    await until(() => attempts.length === 1);
    await consumer.stop();

    expect(finished).toBe(true);
    expect(await op.depth(consumer.queue)).toBe(0);
    expect(attempts).toHaveLength(1);
  });
});
