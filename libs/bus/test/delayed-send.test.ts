import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@postbus/contracts';
import { DELAY_LEVELS_MS, DelayedSender, type BusConnection } from '../src';
import { Operator, openTestBus, randomNamespace } from './support';

const namespace = randomNamespace('delayed');
const TARGET = 'work';
let bus: BusConnection;
let sender: DelayedSender;
let op: Operator;

beforeAll(async () => {
  bus = await openTestBus(namespace);
  await bus.register((model) => bus.declareQueues(model, [bus.workQueue(bus.name(TARGET))]));
  sender = await DelayedSender.create(bus, TARGET);
  op = await Operator.open();
});

afterAll(async () => {
  await bus?.close();
  await op?.cleanUp([sender.target, ...DELAY_LEVELS_MS.map((l) => `${sender.target}.wait.${l}`)], []);
});

const anEvent = (): EventEnvelope => ({
  id: randomUUID(),
  name: 'test.delayed',
  occurredAt: new Date().toISOString(),
  data: { n: 1 },
});

test('when a message is sent with no delay, then it goes straight to the target queue with its id, name and headers', async () => {
  const event = anEvent();
  await sender.send(event, 0, { 'x-step': 'now' });

  const msg = await op.take(sender.target);
  expect(msg.properties.messageId).toBe(event.id);
  expect(msg.properties.type).toBe('test.delayed');
  expect(msg.properties.deliveryMode).toBe(2);
  expect(msg.properties.headers).toMatchObject({ 'x-step': 'now' });
  expect(JSON.parse(msg.content.toString())).toEqual(event);
});

test('when a message is sent with a delay, then it waits in the smallest delay queue that covers it, expiring after the delay asked for, and then reaches the target', async () => {
  const event = anEvent();
  const delayQueue = sender.queueFor(2000);
  expect(delayQueue).toBe(`${sender.target}.wait.5000`);

  await sender.send(event, 2000, { 'x-step': 'later' });

  expect(await op.depth(delayQueue)).toBe(1);
  const msg = await op.take(sender.target, 15_000);
  expect(msg.properties.messageId).toBe(event.id);
  expect(msg.properties.headers).toMatchObject({ 'x-step': 'later' });
  expect(msg.properties.headers?.['x-death']).toEqual([
    expect.objectContaining({ queue: delayQueue, reason: 'expired' }),
  ]);
  expect(await op.depth(delayQueue)).toBe(0);
});

test('when a delay matches a level exactly or exceeds the largest, then the message waits that level without its own expiration', async () => {
  const largest = DELAY_LEVELS_MS[DELAY_LEVELS_MS.length - 1];
  expect(sender.queueFor(250)).toBe(`${sender.target}.wait.250`);
  expect(sender.queueFor(largest * 3)).toBe(`${sender.target}.wait.${largest}`);

  const event = anEvent();
  await sender.send(event, largest * 3, {});
  const parked = await op.take(`${sender.target}.wait.${largest}`);
  expect(parked.properties.messageId).toBe(event.id);
  expect(parked.properties.expiration).toBeUndefined();
});
