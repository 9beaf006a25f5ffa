import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { Events, type EventDef } from '@postbus/contracts';
import { EventConsumer, EventPublisher, type BusConnection } from '../src';
import { Operator, openTestBus, randomNamespace, waitFor } from './support';

const namespace = randomNamespace('typed');
const DELAYS = [50];
let bus: BusConnection;
let publisher: EventPublisher;
let op: Operator;
const consumers: EventConsumer[] = [];
const queues: string[] = [];

const Greeted = {
  name: 'test.greeted',
  schema: Type.Object({ who: Type.String(), times: Type.Integer({ minimum: 1 }) }),
} satisfies EventDef;

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

function newConsumer(local: string, extra: { perProcess?: boolean } = {}): EventConsumer {
  const consumer = new EventConsumer(bus, { queue: local, retryDelaysMs: DELAYS, ...extra });
  consumers.push(consumer);
  queues.push(consumer.queue, consumer.deadQueue, ...DELAYS.map((d) => `${consumer.queue}.retry.${d}`));
  return consumer;
}

describe('typed event handlers', () => {
  it('when an event matches its contract, then the handler registered for it receives its data as published', async () => {
    const seen: string[] = [];
    const consumer = newConsumer('typed-ok').on(
      Greeted,
      (event) => void seen.push(`${event.data.who}×${event.data.times}`),
    );
    await consumer.start();

    await publisher.publish([{ name: Greeted.name, data: { who: 'ada', times: 2 } }]);

    await waitFor(() => seen.length === 1 || undefined);
    expect(seen).toEqual(['ada×2']);
  });

  it('when an event breaks its contract, then it goes to dead letters with the contract problem and the handler never runs', async () => {
    const seen: unknown[] = [];
    const consumer = newConsumer('typed-invalid').on(Greeted, (event) => void seen.push(event.data));
    await consumer.start();

    const id = randomUUID();
    await publisher.publish([{ id, name: Greeted.name, data: { who: 'ada', times: 0 } }]);
    const dead = await op.take(consumer.deadQueue);

    expect(dead.properties.messageId).toBe(id);
    expect(dead.properties.headers?.['x-error']).toBe('test.greeted does not match its contract: times: must be >= 1');
    expect(dead.properties.headers?.['x-attempt']).toBe(1);
    expect(seen).toEqual([]);
  });

  it('when a handler is registered by the name of a contract event, then that contract validates it', async () => {
    const seen: string[] = [];
    const consumer = newConsumer('typed-by-name').on(
      'connection.revoked',
      (event) => void seen.push(event.data.profileId),
    );
    await consumer.start();

    await publisher.publish([{ name: Events.connectionRevoked.name, data: { accountId: 'acc_1' } }]);
    const dead = await op.take(consumer.deadQueue);
    await publisher.publish([
      { name: Events.connectionRevoked.name, data: { accountId: 'acc_1', profileId: 'prf_1' } },
    ]);

    expect(dead.properties.headers?.['x-error']).toMatch(
      /^connection\.revoked does not match its contract: .*profileId/,
    );
    await waitFor(() => seen.length === 1 || undefined);
    expect(seen).toEqual(['prf_1']);
  });

  it('when a per-process consumer hears an event that breaks its contract, then it is dropped and the next event is handled', async () => {
    const seen: string[] = [];
    const consumer = newConsumer(`typed-per-process.${randomUUID()}`, { perProcess: true }).on(
      Greeted,
      (event) => void seen.push(event.data.who),
    );
    await consumer.start();

    await publisher.publish([{ name: Greeted.name, data: { who: 'bad' } }]);
    await publisher.publish([{ name: Greeted.name, data: { who: 'good', times: 1 } }]);

    await waitFor(() => seen.length === 1 || undefined);
    expect(seen).toEqual(['good']);
  });

  it('when a message is JSON but no envelope, then it is dead-lettered rather than left unacknowledged', async () => {
    const consumer = newConsumer('typed-not-envelope').on(Greeted, () => undefined);
    await consumer.start();

    op.channel.publish(`${namespace}.events`, Greeted.name, Buffer.from('null'));
    const dead = await op.take(consumer.deadQueue);

    expect(dead.content.toString()).toBe('null');
    expect(dead.properties.headers?.['x-error']).toBe('JSON that is not an event envelope');
  });

  it('when a handler is registered after start, then on() refuses it', async () => {
    const consumer = newConsumer('typed-late');
    await consumer.start();

    expect(() => consumer.on(Greeted, () => undefined)).toThrow(/before start/);
  });
});
