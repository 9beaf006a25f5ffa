import type { ConfirmChannel, GetMessage } from 'amqplib';
import type { BusConnection } from './connection';
import { stringProperty } from './message-properties';

/** A message parked in `<queue>.dead`, as an operator sees it. */
export interface DeadLetter {
  messageId: string | null;
  event: string | null;
  /** Why it is here: the handler's error, or the broker's reason (e.g. the delivery limit). */
  reason: string;
  /** The attempt that gave up, when the consumer parked it. */
  attempt: number | null;
  deadAt: string | null;
  requestId: string | null;
  /** The event envelope, or null when the body is not JSON. */
  envelope: unknown;
}

/** Headers a consumer or the broker added on the way to the dead-letter queue; a replay starts afresh. */
const DEATH_HEADERS = [
  'x-error',
  'x-attempt',
  'x-last-error',
  'x-dead-at',
  'x-death',
  'x-delivery-count',
  'x-first-death-exchange',
  'x-first-death-queue',
  'x-first-death-reason',
  'x-last-death-exchange',
  'x-last-death-queue',
  'x-last-death-reason',
];

function queuesOf(bus: BusConnection, queue: string): { work: string; dead: string } {
  const local = queue.replace(/\.dead$/, '');
  const work = bus.name(local);
  return { work, dead: `${work}.dead` };
}

function describe(msg: GetMessage): DeadLetter {
  const h = msg.properties.headers ?? {};
  const death = Array.isArray(h['x-death'])
    ? (h['x-death'][0] as { reason?: string; time?: { value?: number } })
    : undefined;
  let envelope: unknown = null;
  try {
    envelope = JSON.parse(msg.content.toString());
  } catch {
    /* shown as null */
  }
  const brokerReason =
    death?.reason === 'delivery_limit'
      ? `redelivered ${h['x-delivery-count'] ?? 'too many'} times without an ack (its consumer kept stopping on it)`
      : death?.reason;
  return {
    messageId: stringProperty(msg.properties, 'messageId') ?? null,
    event: stringProperty(msg.properties, 'type') ?? null,
    reason: String(h['x-error'] ?? brokerReason ?? 'unknown'),
    attempt: h['x-attempt'] === undefined ? null : Number(h['x-attempt']),
    deadAt: h['x-dead-at']
      ? String(h['x-dead-at'])
      : death?.time?.value
        ? new Date(death.time.value * 1000).toISOString()
        : null,
    requestId: h['x-request-id'] ? String(h['x-request-id']) : null,
    envelope,
  };
}

async function depthOf(ch: ConfirmChannel, queue: string): Promise<number> {
  try {
    return (await ch.checkQueue(queue)).messageCount;
  } catch {
    throw new Error(
      `There is no queue ${queue}: is the service that consumes it deployed, and is BUS_NAMESPACE right?`,
    );
  }
}

/**
 * Waits, briefly, until the letters handed back by `nackAll` are counted in the queue again: the
 * broker requeues them asynchronously, and an operator who lists and then counts (or lists twice)
 * must see them where they were.
 */
async function settle(ch: ConfirmChannel, queue: string, atLeast: number): Promise<void> {
  const until = Date.now() + 5000;
  while ((await ch.checkQueue(queue)).messageCount < atLeast && Date.now() < until)
    await new Promise((r) => setTimeout(r, 20));
}

/**
 * Reads up to `limit` dead letters of a consumer's queue without removing them: they are taken
 * unacknowledged and handed back to the queue when the channel closes.
 */
export async function listDeadLetters(
  bus: BusConnection,
  queue: string,
  opts: { limit?: number } = {},
): Promise<{ queue: string; depth: number; letters: DeadLetter[] }> {
  const { dead } = queuesOf(bus, queue);
  return bus.withChannel(async (ch) => {
    const depth = await depthOf(ch, dead);
    const letters: DeadLetter[] = [];
    while (letters.length < Math.min(opts.limit ?? 50, depth)) {
      const msg = await ch.get(dead, { noAck: false });
      if (!msg) break;
      letters.push(describe(msg));
    }
    ch.nackAll(true);
    await settle(ch, dead, depth);
    return { queue: dead, depth, letters };
  });
}

/**
 * Moves dead letters back to the work queue of their consumer (not through the exchange, so
 * no other subscriber sees the event twice), as first attempts, then removes them from the
 * dead-letter queue once the broker confirmed the copy. `messageIds` picks which; `limit`
 * bounds how many. The rest stay where they are.
 */
export async function replayDeadLetters(
  bus: BusConnection,
  queue: string,
  opts: { limit?: number; messageIds?: string[] } = {},
): Promise<{ queue: string; replayed: DeadLetter[]; left: number }> {
  const { work, dead } = queuesOf(bus, queue);
  const wanted = opts.messageIds?.length ? new Set(opts.messageIds) : undefined;
  const limit = opts.limit ?? Number.POSITIVE_INFINITY;
  return bus.withChannel(async (ch) => {
    await depthOf(ch, work);
    const depth = await depthOf(ch, dead);
    const replayed: DeadLetter[] = [];
    for (let seen = 0; seen < depth && replayed.length < limit; seen++) {
      const msg = await ch.get(dead, { noAck: false });
      if (!msg) break;
      const messageId = stringProperty(msg.properties, 'messageId');
      if (wanted && (messageId === undefined || !wanted.has(messageId))) continue; // handed back below
      const headers: Record<string, unknown> = { ...msg.properties.headers };
      for (const h of DEATH_HEADERS) delete headers[h];
      headers['x-replays'] = Number(msg.properties.headers?.['x-replays'] ?? 0) + 1;
      await new Promise<void>((resolve, reject) =>
        ch.sendToQueue(work, msg.content, { ...msg.properties, headers, persistent: true }, (err) =>
          err ? reject(new Error(`the broker refused the copy to ${work}`)) : resolve(),
        ),
      );
      ch.ack(msg);
      replayed.push(describe(msg));
    }
    ch.nackAll(true);
    await settle(ch, dead, depth - replayed.length);
    return { queue: dead, replayed, left: depth - replayed.length };
  });
}
