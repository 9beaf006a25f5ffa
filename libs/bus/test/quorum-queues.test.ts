import { randomUUID } from 'node:crypto';
import { connect, type ChannelModel } from 'amqplib';
import type { EventEnvelope } from '@postbus/contracts';
import {
  DELIVERY_LIMIT,
  EventConsumer,
  EventPublisher,
  listDeadLetters,
  type BusConnection,
  type ConsumerOptions,
  type QueueDeclaration,
} from '../src';
import { AMQP_URL, Operator, openTestBus, randomNamespace, sleep, waitFor } from './support';

const namespace = randomNamespace('quorum');
const DELAYS = [50];
let bus: BusConnection;
let publisher: EventPublisher;
let op: Operator;
let raw: ChannelModel;
const connections: BusConnection[] = [];
const consumers: EventConsumer[] = [];
const queues: string[] = [];

beforeAll(async () => {
  bus = await openTestBus(namespace);
  publisher = await EventPublisher.create(bus);
  op = await Operator.open();
  raw = await connect(AMQP_URL);
});

afterAll(async () => {
  for (const c of consumers) await c.stop().catch(() => undefined);
  for (const c of connections) await c.close();
  await bus?.close();
  await raw?.close().catch(() => undefined);
  await op?.cleanUp(queues, [`${namespace}.events`]);
});

function track(consumer: EventConsumer): EventConsumer {
  consumers.push(consumer);
  queues.push(consumer.queue, consumer.deadQueue, ...DELAYS.map((d) => `${consumer.queue}.retry.${d}`));
  return consumer;
}

function consumerOn(
  on: BusConnection,
  local: string,
  handler: ConsumerOptions['handler'],
  prefetch = 4,
): EventConsumer {
  return track(
    new EventConsumer(on, { queue: local, events: [`test.${local}`], retryDelaysMs: DELAYS, prefetch, handler }),
  );
}

async function publishBatch(local: string, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  await publisher.publish(ids.map((id) => ({ id, name: `test.${local}`, data: {} })));
  return ids;
}

/** Declaring the queue again with the same arguments but as a classic queue is refused exactly when it exists as a quorum queue. */
async function isQuorum({ queue, options }: QueueDeclaration): Promise<boolean> {
  const ch = await raw.createChannel();
  ch.on('error', () => undefined);
  try {
    await ch.assertQueue(queue, { ...options, arguments: { ...options.arguments, 'x-queue-type': 'classic' } });
    await ch.close();
    return false;
  } catch (err) {
    return /inequivalent arg 'x-queue-type'.*current is 'quorum'/.test((err as Error).message);
  }
}

test('when a consumer starts, then its work, dead-letter and delay queues are durable quorum queues', async () => {
  const consumer = consumerOn(bus, 'types', async () => undefined);
  await consumer.start();

  expect(await isQuorum(bus.workQueue(consumer.queue, consumer.deadQueue))).toBe(true);
  expect(await isQuorum(bus.workQueue(consumer.deadQueue))).toBe(true);
  expect(await isQuorum(bus.delayQueue(`${consumer.queue}.retry.${DELAYS[0]}`, DELAYS[0], consumer.queue))).toBe(true);
});

test('when a work queue already exists as a classic queue, then the consumer uses it as it is and still handles events', async () => {
  const handled: string[] = [];
  await op.channel.assertQueue(`${namespace}.legacy`, { durable: true, arguments: { 'x-expires': 60_000 } });
  const consumer = consumerOn(bus, 'legacy', async (e) => void handled.push(e.id));
  await consumer.start();

  const ids = await publishBatch('legacy', 3);
  await waitFor(() => (handled.length === 3 ? true : undefined), { what: 'three events handled' });

  expect(handled.sort()).toEqual(ids.sort());
  expect(
    await isQuorum({ queue: consumer.queue, options: { durable: true, arguments: { 'x-expires': 60_000 } } }),
  ).toBe(false);
  expect(await isQuorum(bus.workQueue(consumer.deadQueue))).toBe(true);
});

test('when every consumer that takes a message dies before acking it, then after the delivery limit the message is parked in the dead-letter queue', async () => {
  const consumer = consumerOn(bus, 'poison', async () => undefined);
  await consumer.start();
  await consumer.stop(); // the topology stays; only the "dying consumers" below take messages
  const [id] = await publishBatch('poison', 1);

  for (let death = 0; death <= DELIVERY_LIMIT; death++) {
    const ch = await raw.createChannel();
    let timer: NodeJS.Timeout | undefined;
    const got = await new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), 2000);
      void ch.consume(consumer.queue, (msg) => msg && resolve(true));
    });
    clearTimeout(timer);
    await ch.close(); // dies without an ack: the broker takes the message back and counts the delivery
    if (!got) break;
  }

  const dead = await waitFor(
    async () => ((await op.depth(consumer.deadQueue)) === 1 ? listDeadLetters(bus, 'poison') : undefined),
    { what: 'the poison message in the dead-letter queue' },
  );
  expect(await op.depth(consumer.queue)).toBe(0);
  expect(dead.letters).toHaveLength(1);
  expect(dead.letters[0]).toMatchObject({ messageId: id, event: 'test.poison' });
  expect(dead.letters[0].reason).toMatch(/without an ack/);
});

test('when a publisher replica is scaled down gracefully in the middle of a batch, then it finishes what it holds and another replica takes the rest, each once', async () => {
  const handledBy: Record<string, string[]> = { a: [], b: [] };
  const handler = (who: 'a' | 'b') => async (e: EventEnvelope) => {
    await sleep(20);
    handledBy[who].push(e.id);
  };
  const replicaBus = await openTestBus(namespace);
  connections.push(replicaBus);
  const a = consumerOn(replicaBus, 'graceful', handler('a'));
  await a.start();

  const ids = await publishBatch('graceful', 40);
  await waitFor(() => (handledBy.a.length >= 5 ? true : undefined), { what: 'replica a to be under way' });
  await a.stop(); // SIGTERM: stop taking work, drain what is in flight
  const b = consumerOn(bus, 'graceful', handler('b'));
  await b.start();
  await waitFor(() => (handledBy.a.length + handledBy.b.length >= ids.length ? true : undefined), {
    what: 'the whole batch',
  });
  await sleep(100);

  const all = [...handledBy.a, ...handledBy.b];
  expect(all.sort()).toEqual([...ids].sort());
  expect(new Set(all).size).toBe(ids.length);
  expect(handledBy.a.length).toBeLessThan(ids.length);
  expect(handledBy.b.length).toBeGreaterThan(0);
});

test('when a publisher replica is killed with messages in flight, then the broker redelivers every unacked message to another replica and nothing is lost', async () => {
  const seenByA: string[] = [];
  const handledByB: { id: string; redelivered: boolean }[] = [];
  let releaseA!: () => void;
  const stuck = new Promise<void>((resolve) => (releaseA = resolve));
  const replicaBus = await openTestBus(namespace);
  const a = consumerOn(replicaBus, 'killed', async (e) => {
    seenByA.push(e.id);
    await stuck; // mid-publish when the pod dies
  });
  await a.start();

  const ids = await publishBatch('killed', 12);
  await waitFor(() => (seenByA.length === 4 ? true : undefined), { what: 'replica a to hold its prefetch' });
  await replicaBus.close(); // the process is gone: no ack, no drain
  const b = consumerOn(
    bus,
    'killed',
    async (e, meta) => void handledByB.push({ id: e.id, redelivered: meta.redelivered }),
  );
  await b.start();
  await waitFor(() => (handledByB.length >= ids.length ? true : undefined), {
    what: 'replica b to handle the whole batch',
  });
  releaseA();

  expect(handledByB.map((h) => h.id).sort()).toEqual([...ids].sort());
  expect(
    handledByB
      .filter((h) => h.redelivered)
      .map((h) => h.id)
      .sort(),
  ).toEqual([...seenByA].sort());
  expect(await op.depth(b.queue)).toBe(0);
});
