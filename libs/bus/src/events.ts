import { createHash, randomUUID } from 'node:crypto';
import type { Channel, ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { Static } from '@sinclair/typebox';
import {
  compile,
  describeErrors,
  type EventDef,
  type EventEnvelope,
  type EventName,
  type EventOf,
} from '@postbus/contracts';
import { currentRequestId, newRequestId, runWithContext } from '@postbus/kit';
import type { BusConnection } from './connection';
import { EventHandlers, type ContractEventNamed, type EventHandler, type EventMeta } from './event-handlers';
import { isPermanent } from './errors';
import { notify, secondsSince, type EventOutcome } from './observer';

export interface OutgoingEvent {
  id?: string;
  name: string;
  data: unknown;
  occurredAt?: string;
  requestId?: string;
}

export function envelope<D extends EventDef>(
  def: D,
  data: Static<D['schema']>,
  opts: { id?: string } = {},
): OutgoingEvent & EventOf<D> {
  const check = compile(def.schema);
  if (!check(data)) throw new Error(`event ${def.name} does not match its contract: ${describeErrors(check.errors)}`);
  return { id: opts.id ?? randomUUID(), name: def.name, data, occurredAt: new Date().toISOString() };
}

/**
 * A UUID derived from a name (RFC 9562 version 8, SHA-256), for an event that may be announced
 * more than once but is one fact: every announcement carries the same id, so consumers that
 * deduplicate by event id (webhook deliveries, say) act on it once.
 */
export function namedEventId(name: string): string {
  const h = createHash('sha256').update(name).digest();
  h[6] = (h[6] & 0x0f) | 0x80;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Publishes events on the topic exchange and resolves only once the broker confirmed them. */
export class EventPublisher {
  private channel?: ConfirmChannel;

  private constructor(private readonly bus: BusConnection) {}

  static async create(bus: BusConnection): Promise<EventPublisher> {
    const pub = new EventPublisher(bus);
    await bus.register(async (model) => {
      const ch = await model.createConfirmChannel();
      ch.on('error', () => undefined);
      ch.on('close', () => {
        if (pub.channel === ch) pub.channel = undefined;
      });
      await ch.assertExchange(bus.exchange, 'topic', { durable: true });
      pub.channel = ch;
    });
    return pub;
  }

  async publish(events: OutgoingEvent[]): Promise<void> {
    const ch = this.channel;
    if (!ch) throw new Error('broker not connected');
    const confirms = events.map(
      (e) =>
        new Promise<void>((resolve, reject) => {
          const env: EventEnvelope = {
            id: e.id ?? randomUUID(),
            name: e.name,
            occurredAt: e.occurredAt ?? new Date().toISOString(),
            data: e.data,
          };
          ch.publish(
            this.bus.exchange,
            e.name,
            Buffer.from(JSON.stringify(env)),
            {
              messageId: env.id,
              type: e.name,
              contentType: 'application/json',
              persistent: true,
              headers: { 'x-request-id': e.requestId ?? currentRequestId() ?? newRequestId() },
            },
            (err) => (err ? reject(new Error(`broker refused ${e.name}`)) : resolve()),
          );
        }),
    );
    await Promise.all(confirms);
  }
}

export interface ConsumerOptions {
  /** Local queue name; prefixed with the namespace. */
  queue: string;
  /** A queue of this process alone (e.g. cache invalidation): not durable, deleted when the process goes. */
  perProcess?: boolean;
  /** Event names (routing keys) bound to the queue for `handler`, besides those given to on(). */
  events?: string[];
  /** Delay before each retry; its length bounds the attempts. */
  retryDelaysMs?: number[];
  prefetch?: number;
  /** Receives, unvalidated and untyped, each event that has no handler given to on(). */
  handler?: (event: EventEnvelope, meta: EventMeta) => Promise<unknown>;
}

const DEFAULT_RETRIES = [1000, 5000, 30_000, 120_000, 600_000];

/**
 * A durable queue bound to events, acked by hand. A failing handler is retried through delay
 * queues (TTL then dead-letter back to the work queue) and, when attempts run out or the error
 * is permanent, moved to `<queue>.dead` with the reason, where an operator can read it.
 */
export class EventConsumer {
  private channel?: ConfirmChannel;
  private consumerTag?: string;
  private unregister?: () => void;
  private inFlight = 0;
  private drained?: () => void;
  private readonly handlers = new EventHandlers();

  constructor(
    private readonly bus: BusConnection,
    private readonly opts: ConsumerOptions,
  ) {}

  /**
   * Handles one event with its data typed by the event's contract (by the contract itself, or by the
   * name of one in Events) and validated on receipt, as RPC input is: data that breaks the contract
   * goes to dead letters without reaching the handler. Register before start().
   */
  on<N extends EventName>(name: N, handler: EventHandler<ContractEventNamed<N>>): this;
  on<D extends EventDef>(def: D, handler: EventHandler<D>): this;
  on(defOrName: EventDef | string, handler: (event: never, meta: EventMeta) => Promise<unknown> | void): this {
    if (this.unregister) throw new Error(`register the handlers of ${this.opts.queue} before start()`);
    this.handlers.add(defOrName, handler as EventHandler<EventDef>);
    return this;
  }

  get queue(): string {
    return this.bus.name(this.opts.queue);
  }
  get deadQueue(): string {
    return `${this.queue}.dead`;
  }
  private get delays(): number[] {
    return this.opts.retryDelaysMs ?? DEFAULT_RETRIES;
  }
  private retryQueue(delay: number): string {
    return `${this.queue}.retry.${delay}`;
  }

  async start(): Promise<void> {
    this.unregister = await this.bus.register(async (model) => {
      const ch = await model.createConfirmChannel();
      ch.on('error', () => undefined);
      await ch.assertExchange(this.bus.exchange, 'topic', { durable: true });
      if (this.opts.perProcess) {
        await ch.assertQueue(this.queue, { durable: false, autoDelete: true, arguments: { 'x-expires': 60_000 } });
      } else {
        await this.bus.declareQueues(model, [
          this.bus.workQueue(this.deadQueue),
          this.bus.workQueue(this.queue, this.deadQueue),
          ...[...new Set(this.delays)].map((delay) => this.bus.delayQueue(this.retryQueue(delay), delay, this.queue)),
        ]);
      }
      for (const name of new Set([...this.handlers.names, ...(this.opts.events ?? [])]))
        await ch.bindQueue(this.queue, this.bus.exchange, name);
      await ch.prefetch(this.opts.prefetch ?? 16);
      const { consumerTag } = await ch.consume(this.queue, (msg) => msg && void this.onMessage(ch, msg));
      this.channel = ch;
      this.consumerTag = consumerTag;
    });
  }

  private async onMessage(ch: ConfirmChannel, msg: ConsumeMessage): Promise<void> {
    this.inFlight++;
    const delivery = this.describeDelivery(msg);
    try {
      await this.handleMessage(ch, msg, delivery);
    } catch {
      // The channel died mid-way: the broker redelivers the unacked message.
    } finally {
      if (--this.inFlight === 0) this.drained?.();
    }
  }

  /** Reads the attempt and request id from the headers, and starts the clock for the outcome metric. */
  private describeDelivery(msg: ConsumeMessage): Delivery {
    const headers = msg.properties.headers ?? {};
    const attempt = Number(headers['x-attempt'] ?? 1);
    const requestId = String(headers['x-request-id'] ?? newRequestId());
    const started = process.hrtime.bigint();
    const observe = (outcome: EventOutcome) =>
      notify(
        this.bus.options.observer,
        'eventHandled',
        this.opts.queue,
        String(msg.properties.type ?? 'unknown'),
        outcome,
        secondsSince(started),
      );
    return { attempt, requestId, observe };
  }

  private async handleMessage(ch: ConfirmChannel, msg: ConsumeMessage, delivery: Delivery): Promise<void> {
    const { attempt, requestId, observe } = delivery;
    const read = readEnvelope(msg);
    if ('unreadable' in read) {
      await this.forward(ch, msg, this.deadQueue, {
        'x-error': read.unreadable,
        'x-dead-at': new Date().toISOString(),
      });
      observe('dead');
      return;
    }
    const { event } = read;
    this.noteFirstReceipt(msg, event, attempt);
    try {
      await runWithContext({ requestId }, () =>
        this.dispatch(event, { attempt, redelivered: msg.fields.redelivered, message: msg }),
      );
      ch.ack(msg);
      observe('ok');
    } catch (err) {
      await this.handleFailure(ch, msg, event, delivery, err);
    }
  }

  /** Reports how long a first delivery took to arrive after the event occurred. */
  private noteFirstReceipt(msg: ConsumeMessage, event: EventEnvelope, attempt: number): void {
    const occurredAt = Date.parse(event.occurredAt);
    if (attempt === 1 && !msg.fields.redelivered && Number.isFinite(occurredAt))
      notify(
        this.bus.options.observer,
        'eventReceived',
        this.opts.queue,
        String(msg.properties.type ?? 'unknown'),
        Math.max(0, (Date.now() - occurredAt) / 1000),
      );
  }

  /** A per-process handler's failure is dropped; otherwise retry after the next delay, or dead-letter. */
  private async handleFailure(
    ch: ConfirmChannel,
    msg: ConsumeMessage,
    event: EventEnvelope,
    { attempt, observe }: Delivery,
    err: unknown,
  ): Promise<void> {
    const reason = (err as Error).message ?? String(err);
    if (this.opts.perProcess) {
      this.bus.options.logger.warn('per-process event handler failed; dropped', {
        queue: this.opts.queue,
        event: event.name,
        reason,
      });
      ch.ack(msg);
      return;
    }
    if (isPermanent(err) || attempt > this.delays.length) {
      this.bus.options.logger.warn('event dead-lettered', {
        queue: this.opts.queue,
        event: event.name,
        attempt,
        reason,
      });
      await this.forward(ch, msg, this.deadQueue, {
        'x-error': reason,
        'x-attempt': attempt,
        'x-dead-at': new Date().toISOString(),
      });
      observe('dead');
    } else {
      const delay = this.delays[attempt - 1];
      this.bus.options.logger.info('event retry scheduled', {
        queue: this.opts.queue,
        event: event.name,
        attempt,
        delay,
        reason,
      });
      await this.forward(ch, msg, this.retryQueue(delay), { 'x-attempt': attempt + 1, 'x-last-error': reason });
      observe('retry');
    }
  }

  private async dispatch(event: EventEnvelope, meta: EventMeta): Promise<void> {
    if (this.handlers.has(event.name)) return this.handlers.dispatch(event, meta);
    await this.opts.handler?.(event, meta);
  }

  /** Copies the message to `queue` with extra headers, waits for the broker's confirm, then acks. */
  private async forward(
    ch: ConfirmChannel,
    msg: ConsumeMessage,
    queue: string,
    headers: Record<string, unknown>,
  ): Promise<void> {
    await new Promise<void>((resolve, reject) =>
      ch.sendToQueue(
        queue,
        msg.content,
        { ...msg.properties, headers: { ...msg.properties.headers, ...headers }, persistent: true },
        (err: Error | null) => (err ? reject(err) : resolve()),
      ),
    );
    ch.ack(msg);
  }

  async stop(): Promise<void> {
    this.unregister?.(); // a reconnect must not bring a stopped component back
    if (this.channel && this.consumerTag) await this.channel.cancel(this.consumerTag).catch(() => undefined);
    if (this.inFlight > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    await (this.channel as Channel | undefined)?.close().catch(() => undefined);
  }
}

/** The envelope of a message, or why there is none: not JSON, or JSON that is no envelope (null, a number, no name). */
/** What a consumer knows about one delivery before reading its body. */
interface Delivery {
  attempt: number;
  requestId: string;
  observe: (outcome: EventOutcome) => void;
}

function readEnvelope(msg: ConsumeMessage): { event: EventEnvelope } | { unreadable: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(msg.content.toString());
  } catch {
    return { unreadable: 'unreadable JSON' };
  }
  const named =
    parsed !== null && typeof parsed === 'object' && typeof (parsed as { name?: unknown }).name === 'string';
  return named ? { event: parsed as EventEnvelope } : { unreadable: 'JSON that is not an event envelope' };
}
