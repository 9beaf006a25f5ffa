import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { defineRpc } from '@postbus/contracts';
import { EventConsumer, EventPublisher, RpcClient, RpcServer, type BusConnection } from '../src';
import { Operator, canAdministerBroker, forceCloseConnection, openTestBus, randomNamespace, waitFor } from './support';

/**
 * Forces the broker to drop one named connection (rabbitmqctl close_connection, never a broad
 * close_all_connections: other suites share the broker) and checks every component comes back.
 */
const Echo = defineRpc('echo.say', Type.Object({ text: Type.String() }), Type.Object({ text: Type.String() }), {
  anonymous: true,
});
const EVENT = 'reconnect.test';

const namespace = randomNamespace('reconnect');
const serverName = `${namespace}.server`;
const clientName = `${namespace}.client`;
let administrable = false;
let serverBus: BusConnection;
let clientBus: BusConnection;
let server: RpcServer;
let consumer: EventConsumer;
let client: RpcClient;
let publisher: EventPublisher;
const consumed: string[] = [];

beforeAll(async () => {
  administrable = await canAdministerBroker();
  if (!administrable) return;
  serverBus = await openTestBus(namespace, { connectionName: serverName });
  clientBus = await openTestBus(namespace, { connectionName: clientName });
  server = new RpcServer(serverBus, 'echo').handle(Echo, async (input) => input);
  await server.start();
  consumer = new EventConsumer(serverBus, {
    queue: 'reconnect',
    events: [EVENT],
    retryDelaysMs: [50],
    handler: async (e) => void consumed.push(e.id),
  });
  await consumer.start();
  client = await RpcClient.create(clientBus, 1000);
  publisher = await EventPublisher.create(clientBus);
});

afterAll(async () => {
  if (!administrable) return;
  client?.close();
  await server?.stop();
  await consumer?.stop();
  await clientBus?.close();
  await serverBus?.close();
  const op = await Operator.open();
  await op.cleanUp(
    [`${namespace}.rpc.echo`, consumer.queue, consumer.deadQueue, `${consumer.queue}.retry.50`],
    [`${namespace}.events`],
  );
});

const callSoon = (text: string) =>
  waitFor(() => client.call(Echo, { text }, null, { timeoutMs: 300 }), {
    timeoutMs: 20_000,
    intervalMs: 100,
    what: 'an RPC answer after reconnect',
  });

const maybe = (title: string, fn: () => Promise<void>) =>
  it(title, async () => {
    if (!administrable) {
      console.warn(`skipped (rabbitmqctl unavailable): ${title}`);
      return;
    }
    await fn();
  });

maybe(
  'when the broker drops the serving connection, then the RPC server and the consumer come back and get what was sent meanwhile',
  async () => {
    await expect(client.call(Echo, { text: 'before' })).resolves.toEqual({ text: 'before' });

    expect(await forceCloseConnection(serverName)).toBe(1);
    const sentWhileDown = randomUUID();
    await publisher.publish([{ id: sentWhileDown, name: EVENT, data: {} }]);

    await expect(callSoon('after')).resolves.toEqual({ text: 'after' });
    await waitFor(() => (consumed.includes(sentWhileDown) ? true : undefined), {
      timeoutMs: 8000,
      what: 'the event sent while the consumer was down',
    });
    expect(serverBus.connected).toBe(true);
  },
);

maybe('when the broker drops the calling connection, then the RPC client and the publisher come back', async () => {
  expect(await forceCloseConnection(clientName)).toBe(1);

  await expect(callSoon('again')).resolves.toEqual({ text: 'again' });
  const id = randomUUID();
  await waitFor(() => publisher.publish([{ id, name: EVENT, data: {} }]).then(() => true), {
    timeoutMs: 8000,
    what: 'a confirmed publish',
  });
  await waitFor(() => (consumed.includes(id) ? true : undefined), {
    timeoutMs: 5000,
    what: 'the event published after reconnect',
  });
  expect(clientBus.connected).toBe(true);
});

maybe('when a consumer and an RPC server were stopped, then a reconnect does not bring them back', async () => {
  const stoppedSeen: string[] = [];
  const stopped = new EventConsumer(serverBus, {
    queue: 'stopped',
    events: [`${EVENT}.stopped`],
    retryDelaysMs: [50],
    handler: async (e) => void stoppedSeen.push(e.id),
  });
  await stopped.start();
  const Other = defineRpc('other.ping', Type.Object({}), Type.Object({}), { anonymous: true });
  const other = new RpcServer(serverBus, 'other').handle(Other, async () => ({}));
  await other.start();
  // The client may still be reconnecting after the previous test: the call is retried until it answers.
  await expect(
    waitFor(() => client.call(Other, {}, null, { timeoutMs: 300 }), {
      timeoutMs: 20_000,
      intervalMs: 100,
      what: 'the other service',
    }),
  ).resolves.toEqual({});
  await stopped.stop();
  await other.stop();
  const op = await Operator.open();

  try {
    expect(await forceCloseConnection(serverName)).toBe(1);
    await callSoon('reconnected'); // the serving connection is back and its live components are set up again
    const id = randomUUID();
    await publisher.publish([{ id, name: `${EVENT}.stopped`, data: {} }]);
    await expect(client.call(Other, {}, null, { timeoutMs: 300 })).rejects.toMatchObject({
      code: 'service_unavailable',
    });

    expect(stoppedSeen).toEqual([]);
    expect(await op.depth(stopped.queue)).toBe(1);
  } finally {
    await op.cleanUp([stopped.queue, stopped.deadQueue, `${stopped.queue}.retry.50`, `${namespace}.rpc.other`], []);
  }
});
