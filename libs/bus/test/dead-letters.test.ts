import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  EventConsumer,
  EventPublisher,
  listDeadLetters,
  openBus,
  PermanentError,
  replayDeadLetters,
  type Bus,
} from '../src';
import type { CliCommand } from '../../../scripts/postbus';
import { logger, Operator, randomNamespace, waitFor, AMQP_URL } from './support';

const namespace = randomNamespace('dead');
let bus: Bus;
let publisher: EventPublisher;
let op: Operator;
let consumer: EventConsumer;
const handled: { id: string; attempt: number }[] = [];
let broken = true;

const command = async (name: string): Promise<CliCommand> =>
  (
    (await import(join(__dirname, '..', '..', '..', 'scripts', 'commands', `${name}.command.ts`))) as {
      command: CliCommand;
    }
  ).command;

/** Runs an operator command as `pnpm postbus` would and answers what it printed. */
async function cli(name: string, args: Record<string, string | true>): Promise<string> {
  const lines: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
  try {
    await (await command(name)).run(args, { bus: async () => bus, env: {} });
  } finally {
    log.mockRestore();
  }
  return lines.join('\n');
}

beforeAll(async () => {
  bus = await openBus({ url: AMQP_URL, namespace, logger, rpcTimeoutMs: 2000, ephemeral: true });
  publisher = bus.events;
  op = await Operator.open();
  consumer = bus.consume({
    queue: 'publisher.due',
    events: ['post.due'],
    retryDelaysMs: [],
    handler: async (e, meta) => {
      if (broken) throw new PermanentError(`platform refused ${(e.data as { postId: string }).postId}`);
      handled.push({ id: e.id, attempt: meta.attempt });
    },
  });
  await consumer.start();
});

afterAll(async () => {
  await consumer?.stop();
  await bus?.close();
  await op?.cleanUp([consumer.queue, consumer.deadQueue], [`${namespace}.events`]);
});

async function park(count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  await publisher.publish(
    ids.map((id, i) => ({ id, name: 'post.due', data: { postId: `pst_${i}` }, requestId: `req_${i}` })),
  );
  await waitFor(async () => ((await op.depth(consumer.deadQueue)) >= count ? true : undefined), {
    what: 'dead letters',
  });
  return ids;
}

test('when messages are dead-lettered, then the operator lists them with their reasons and they stay in the queue', async () => {
  const ids = await park(3);

  const listed = await listDeadLetters(bus.connection, 'publisher.due', { limit: 2 });
  const printed = await cli('dead-letters', { queue: 'publisher.due' });

  expect(listed.depth).toBe(3);
  expect(listed.letters).toHaveLength(2);
  expect(listed.letters[0]).toMatchObject({
    messageId: ids[0],
    event: 'post.due',
    reason: 'platform refused pst_0',
    attempt: 1,
    requestId: 'req_0',
    envelope: { id: ids[0], name: 'post.due', data: { postId: 'pst_0' } },
  });
  expect(Date.parse(listed.letters[0].deadAt!)).not.toBeNaN();
  expect(printed).toContain(`${namespace}.publisher.due.dead: 3 message(s)`);
  for (const id of ids) expect(printed).toContain(id);
  expect(await op.depth(consumer.deadQueue)).toBe(3);

  await op.channel.purgeQueue(consumer.deadQueue); // the next test starts from an empty queue
});

test('when the operator replays one dead letter by id after the cause is fixed, then only that one is handled again, as a first attempt', async () => {
  const ids = await park(2);
  broken = false;

  const out = JSON.parse(await cli('replay-dead-letters', { queue: 'publisher.due.dead', id: ids[1], json: true }));
  await waitFor(() => (handled.length === 1 ? true : undefined), { what: 'the replayed event' });

  expect(out).toEqual({ queue: `${namespace}.publisher.due.dead`, replayed: 1, messageIds: [ids[1]], left: 1 });
  expect(handled).toEqual([{ id: ids[1], attempt: 1 }]);
  const rest = await listDeadLetters(bus.connection, 'publisher.due');
  expect(rest.letters.map((l) => l.messageId)).toEqual([ids[0]]);

  const all = await replayDeadLetters(bus.connection, 'publisher.due');
  await waitFor(() => (handled.length === 2 ? true : undefined), { what: 'the last replayed event' });
  expect(all.replayed.map((l) => l.messageId)).toEqual([ids[0]]);
  expect(await op.depth(consumer.deadQueue)).toBe(0);
});

test('when the queue named does not exist, then the commands say so instead of showing nothing', async () => {
  await expect(listDeadLetters(bus.connection, 'nobody.home')).rejects.toThrow(
    `There is no queue ${namespace}.nobody.home.dead`,
  );
  await expect(cli('replay-dead-letters', { queue: 'nobody.home' })).rejects.toThrow(/There is no queue/);
  await expect(cli('dead-letters', { queue: 'publisher.due', limit: '0' })).rejects.toThrow(
    '--limit must be a positive integer',
  );
});
