import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { ConsumeMessage } from 'amqplib';
import type { EventEnvelope } from '@postbus/contracts';
import { openDataSource, runWithContext } from '@postbus/kit';
import {
  CreateOutbox1732200000000,
  EventConsumer,
  EventPublisher,
  OutboxRelay,
  writeOutbox,
  type BusConnection,
  type OutgoingEvent,
} from '../src';
import { Operator, createTestEnv, logger, openTestBus, sleep, waitFor, type TestEnv } from './support';

const EVENT = 'outbox.test';
let env: TestEnv;
let ds: DataSource;
let bus: BusConnection;
let publisher: EventPublisher;
let sink: EventConsumer;
const received: { event: EventEnvelope; message: ConsumeMessage }[] = [];
const relays: OutboxRelay[] = [];

beforeAll(async () => {
  env = await createTestEnv('bus_outbox');
  ds = await openDataSource({
    url: env.databaseUrl,
    schema: 'bustest',
    migrations: [CreateOutbox1732200000000],
    poolSize: 4,
  });
  bus = await openTestBus(env.namespace);
  publisher = await EventPublisher.create(bus);
  sink = new EventConsumer(bus, {
    queue: 'sink',
    events: [`${EVENT}.#`],
    retryDelaysMs: [50],
    handler: async (event, meta) => void received.push({ event, message: meta.message }),
  });
  await sink.start();
});

afterAll(async () => {
  for (const r of relays) await r.stop();
  await sink?.stop();
  await bus?.close();
  const op = await Operator.open();
  await op.cleanUp(sink ? [sink.queue, sink.deadQueue, `${sink.queue}.retry.50`] : [], [`${env?.namespace}.events`]);
  await ds?.destroy();
  await env?.drop();
});

function anEvent(label: string): OutgoingEvent & { id: string } {
  return { id: randomUUID(), name: `${EVENT}.${label}`, data: { label } };
}

function relayWith(pub: EventPublisher, opts = {}): OutboxRelay {
  const relay = new OutboxRelay(ds, pub, logger, { pollMs: 50, ...opts });
  relays.push(relay);
  return relay;
}

const timesReceived = (id: string) => received.filter((r) => r.event.id === id).length;

/** Relays a marker through `relay` and waits for it: whatever the relay had before it has arrived too. */
async function flushThrough(relay: OutboxRelay): Promise<void> {
  const marker = anEvent('marker');
  await ds.transaction((m) => writeOutbox(m, [marker]));
  relay.kick();
  await waitFor(() => (timesReceived(marker.id) ? true : undefined), { what: 'the marker event' });
}

describe('transactional outbox', () => {
  let relay: OutboxRelay;
  beforeAll(() => {
    relay = relayWith(publisher);
    relay.start();
  });
  afterAll(() => relay.stop()); // the next block needs the table to itself

  it('when rows are written in a committed transaction, then each is published once with its id, data and request id, and the table empties', async () => {
    const events = [anEvent('a'), anEvent('b'), anEvent('c')];

    await runWithContext({ requestId: 'req_outbox_1' }, () => ds.transaction((m) => writeOutbox(m, events)));
    relay.kick();
    await waitFor(() => (events.every((e) => timesReceived(e.id) === 1) ? true : undefined), {
      what: 'the committed events',
    });
    await flushThrough(relay);

    for (const e of events) {
      const got = received.filter((r) => r.event.id === e.id);
      expect(got).toHaveLength(1);
      expect(got[0].event).toMatchObject({ id: e.id, name: e.name, data: e.data });
      expect(got[0].message.properties.headers?.['x-request-id']).toBe('req_outbox_1');
    }
    expect(await relay.backlog()).toBe(0);
  });

  it('when events carry no id, then writeOutbox gives each one and they are relayed', async () => {
    const before = received.length;

    await ds.transaction((m) =>
      writeOutbox(m, [
        { name: `${EVENT}.anonymous`, data: { n: 1 } },
        { name: `${EVENT}.anonymous`, data: { n: 2 } },
      ]),
    );
    relay.kick();
    await flushThrough(relay);

    const got = received.slice(before).filter((r) => r.event.name === `${EVENT}.anonymous`);
    expect(got.map((r) => r.event.data)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(new Set(got.map((r) => r.event.id)).size).toBe(2);
  });

  it('when the transaction rolls back, then its rows are never published', async () => {
    const doomed = anEvent('doomed');

    await expect(
      ds.transaction(async (m) => {
        await writeOutbox(m, [doomed]);
        throw new Error('domain rule broken');
      }),
    ).rejects.toThrow('domain rule broken');
    await flushThrough(relay);

    expect(timesReceived(doomed.id)).toBe(0);
    expect(await relay.backlog()).toBe(0);
  });
});

describe('transactional outbox while the broker is unreachable', () => {
  it('when publishing fails at commit time, then the rows stay, and once the broker is reachable each is published exactly once', async () => {
    const downBus = await openTestBus(env.namespace);
    const downPublisher = await EventPublisher.create(downBus);
    await downBus.close();
    const down = relayWith(downPublisher, { pollMs: 20 });
    const events = Array.from({ length: 12 }, (_, i) => anEvent(`late-${i}`));

    await ds.transaction((m) => writeOutbox(m, events.slice(0, 6)));
    await expect(down.relayBatch()).rejects.toThrow(/not connected|closed/);
    down.start();
    await ds.transaction((m) => writeOutbox(m, events.slice(6)));
    down.kick();
    await sleep(200); // several background rounds fail meanwhile
    await down.stop();

    expect(await down.backlog()).toBe(12);
    expect(events.filter((e) => timesReceived(e.id) > 0)).toEqual([]);

    const up = relayWith(publisher, { batchSize: 5 });
    up.start();
    await waitFor(() => (events.every((e) => timesReceived(e.id) > 0) ? true : undefined), { what: 'the kept events' });
    await flushThrough(up);

    expect(events.map((e) => timesReceived(e.id))).toEqual(events.map(() => 1));
    expect(received.filter((r) => r.event.name.startsWith(`${EVENT}.late-`)).map((r) => r.event.id)).toEqual(
      events.map((e) => e.id),
    );
    expect(await up.backlog()).toBe(0);
    await up.stop();
  });

  it('when two relays run at once, then SKIP LOCKED hands each row to one of them and none is published twice', async () => {
    const events = Array.from({ length: 60 }, (_, i) => anEvent(`pair-${i}`));
    await ds.transaction((m) => writeOutbox(m, events));
    const a = relayWith(publisher, { batchSize: 7 });
    const b = relayWith(publisher, { batchSize: 7 });

    const moved = await Promise.all(
      [a, b].map(async (r) => {
        let n = 0;
        for (let k = await r.relayBatch(); k > 0; k = await r.relayBatch()) n += k;
        return n;
      }),
    );
    await waitFor(() => (events.every((e) => timesReceived(e.id) > 0) ? true : undefined), {
      what: 'the paired events',
    });
    await flushThrough(a);

    expect(moved[0] + moved[1]).toBeGreaterThanOrEqual(60);
    expect(events.map((e) => timesReceived(e.id))).toEqual(events.map(() => 1));
    expect(await a.backlog()).toBe(0);
  });
});

describe('transactional outbox while the broker does not confirm', () => {
  beforeAll(async () => {
    for (const r of relays) await r.stop(); // the silent relay needs the table to itself
  });

  it('when confirms never come, then the batch gives up at its deadline, rolls back, and another relay publishes the rows', async () => {
    const silent = { publish: () => new Promise<void>(() => undefined) };
    const stuck = new OutboxRelay(ds, silent, logger, { confirmTimeoutMs: 300 });
    const events = [anEvent('unconfirmed-1'), anEvent('unconfirmed-2')];
    await ds.transaction((m) => writeOutbox(m, events));

    // Bounded here so that a relay waiting for ever fails the test instead of hanging it.
    let bound: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      stuck.relayBatch().then(
        () => 'published',
        (err: Error) => err.message,
      ),
      new Promise<string>((resolve) => (bound = setTimeout(() => resolve('still waiting for confirms'), 10_000))),
    ]).finally(() => clearTimeout(bound));

    expect(outcome).toMatch(/confirms did not arrive/);
    expect(await stuck.backlog()).toBeGreaterThanOrEqual(2);
    const idle = await ds.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction'`,
    );
    expect(idle[0].n).toBe(0);

    const up = relayWith(publisher);
    up.start();
    await waitFor(() => (events.every((e) => timesReceived(e.id) === 1) ? true : undefined), {
      what: 'the rows the silent broker left',
    });
    await up.stop();
  });
});
