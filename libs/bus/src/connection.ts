import { connect, type ChannelModel, type ConfirmChannel, type Options, type RecoveringChannelModel } from 'amqplib';
import { redactUrl, type Logger } from '@postbus/kit';
import { DEVELOPMENT_KEYS, type BusKeys } from './call-signature';
import type { BusObserver } from './observer';

export interface BusOptions {
  url: string;
  /** Prefix of every queue and exchange (BUS_NAMESPACE). */
  namespace: string;
  logger: Logger;
  /** Tests: queues vanish once unused (`x-expires`), so a namespace leaves no queue behind. */
  ephemeral?: boolean;
  /** Shown by the broker (`rabbitmqctl list_connections user_provided_name`) for this connection. */
  connectionName?: string;
  /** Told about RPCs and handled events (metrics); nothing is measured without one. */
  observer?: BusObserver;
  /** Keys that sign the RPCs this process makes and check those it serves; none: the development keys. */
  keys?: BusKeys;
}

/**
 * A message delivered this many times without an ack (its consumer died on it each time) is
 * poison: the quorum queue dead-letters it to `<queue>.dead` instead of redelivering forever.
 */
export const DELIVERY_LIMIT = 10;

export interface QueueDeclaration {
  queue: string;
  /** amqplib types `arguments` as `any`; ours are always the `x-` map built by queueArgs. */
  options: Omit<Options.AssertQueue, 'arguments'> & { arguments?: Record<string, unknown> };
}

type Setup = (model: ChannelModel) => Promise<void>;

/**
 * amqplib's muxer writes each frame of each channel to the socket on its own, every write a
 * system call that wakes the broker. Corked for the length of one muxer pass, the frames that
 * piled up meanwhile (acks, publishes, RPC replies of many requests) leave in one `writev`.
 * Where amqplib's internals differ from this shape, writes stay as they are.
 */
function coalesceWrites(model: ChannelModel): void {
  const connection = (
    model as unknown as {
      connection?: { muxer?: { _readIncoming?: () => void }; stream?: { cork?: () => void; uncork?: () => void } };
    }
  ).connection;
  const muxer = connection?.muxer;
  const socket = connection?.stream;
  const pass = muxer?._readIncoming;
  if (!muxer || typeof pass !== 'function' || typeof socket?.cork !== 'function' || typeof socket.uncork !== 'function')
    return;
  muxer._readIncoming = function corkedPass(this: unknown) {
    socket.cork!();
    try {
      pass.call(muxer);
    } finally {
      socket.uncork!();
    }
  };
}

/**
 * One AMQP connection that recovers by itself. Components register a setup that declares
 * their topology and opens their channels; it runs now and again after every reconnect.
 */
export class BusConnection {
  private model?: ChannelModel;
  private readonly setups = new Set<Setup>();
  private closed = false;

  private constructor(
    readonly options: BusOptions,
    private readonly recovering: RecoveringChannelModel,
  ) {}

  static async open(options: BusOptions): Promise<BusConnection> {
    const recovering = await connect(options.url, {
      noDelay: true,
      clientProperties: options.connectionName ? { connection_name: options.connectionName } : {},
      recovery: { initialDelay: 100, maxDelay: 5000, initialMaxRetries: 20, waitForConnect: false },
    });
    const bus = new BusConnection(options, recovering);
    recovering.on('connect', (model: ChannelModel) => void bus.onConnect(model));
    recovering.on('disconnect', (err: Error) => {
      bus.model = undefined;
      if (!bus.closed) options.logger.warn('broker connection lost; reconnecting', { err: err?.message });
    });
    recovering.on('error', (err: Error) => options.logger.warn('broker connection error', { err: err.message }));
    try {
      await recovering.waitForConnect();
    } catch (err) {
      throw new Error(`Cannot reach RabbitMQ at ${redactUrl(options.url)}: ${(err as Error).message}`);
    }
    // waitForConnect resolves after the first 'connect'; make sure the model is known.
    await bus.ready();
    return bus;
  }

  /**
   * Runs every registered setup on a fresh connection. A setup that fails is logged and the
   * others still run (one broken consumer must not keep the rest offline); nothing here may
   * reject, since it runs from an event listener.
   */
  private async onConnect(model: ChannelModel): Promise<void> {
    this.model = model;
    coalesceWrites(model);
    // A setup registered while this loop runs is run by register() itself, not twice.
    for (const setup of [...this.setups]) {
      if (this.model !== model) return; // lost again; the next connect runs them
      await this.runSetup(setup, model).catch(() => undefined);
    }
    this.readyWaiters.splice(0).forEach((w) => w.resolve());
  }

  private readonly readyWaiters: { resolve: () => void; reject: (err: Error) => void }[] = [];
  private ready(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('bus connection closed'));
    if (this.model) return Promise.resolve();
    return new Promise((resolve, reject) => this.readyWaiters.push({ resolve, reject }));
  }

  private async runSetup(setup: Setup, model: ChannelModel): Promise<void> {
    try {
      await setup(model);
    } catch (err) {
      this.options.logger.error('bus setup failed', { err: (err as Error).message });
      throw err;
    }
  }

  get connected(): boolean {
    return this.model !== undefined;
  }

  /** Runs `setup` now (when connected) and after each reconnect. */
  async register(setup: Setup): Promise<() => void> {
    await this.ready();
    this.setups.add(setup);
    try {
      await this.runSetup(setup, this.model!);
    } catch (err) {
      this.setups.delete(setup);
      throw err;
    }
    return () => this.setups.delete(setup);
  }

  /** Runs `fn` on a confirm channel of its own (operator tools), closed afterwards. */
  async withChannel<T>(fn: (ch: ConfirmChannel) => Promise<T>): Promise<T> {
    await this.ready();
    const ch = await this.model!.createConfirmChannel();
    ch.on('error', () => undefined);
    try {
      return await fn(ch);
    } finally {
      await ch.close().catch(() => undefined);
    }
  }

  get keys(): BusKeys {
    return this.options.keys ?? DEVELOPMENT_KEYS;
  }

  name(local: string): string {
    return `${this.options.namespace}.${local}`;
  }

  get exchange(): string {
    return this.name('events');
  }

  /**
   * A durable work queue: a quorum queue (replicated on a clustered broker, messages survive a
   * node's loss). A message its consumers keep dying on goes to `deadLetterTo` after
   * DELIVERY_LIMIT deliveries, at least once.
   */
  workQueue(queue: string, deadLetterTo?: string): QueueDeclaration {
    const extra: Record<string, unknown> = deadLetterTo
      ? {
          'x-delivery-limit': DELIVERY_LIMIT,
          'x-dead-letter-exchange': '',
          'x-dead-letter-routing-key': deadLetterTo,
          'x-dead-letter-strategy': 'at-least-once',
          'x-overflow': 'reject-publish',
        }
      : {};
    return { queue, options: this.queueArgs(extra) };
  }

  /** A delay queue: messages wait `delayMs`, then move (at least once) to `target`. */
  delayQueue(queue: string, delayMs: number, target: string): QueueDeclaration {
    return {
      queue,
      options: this.queueArgs({
        'x-message-ttl': delayMs,
        'x-dead-letter-exchange': '',
        'x-dead-letter-routing-key': target,
        'x-dead-letter-strategy': 'at-least-once',
        'x-overflow': 'reject-publish',
      }),
    };
  }

  /** Arguments for a durable quorum queue (expiring once unused in ephemeral mode). */
  queueArgs(extra: Record<string, unknown> = {}): { durable: boolean; arguments: Record<string, unknown> } {
    const args: Record<string, unknown> = { 'x-queue-type': 'quorum', ...extra };
    if (this.options.ephemeral) args['x-expires'] = 60_000;
    return { durable: true, arguments: args };
  }

  /**
   * Declares queues on a channel of their own. A queue that already exists with other arguments
   * (a classic queue from before the switch to quorum queues) is used as it is, with a warning,
   * instead of keeping the service offline; the runbook tells how to move it.
   */
  async declareQueues(model: ChannelModel, declarations: QueueDeclaration[]): Promise<void> {
    let ch = await model.createChannel();
    ch.on('error', () => undefined);
    try {
      for (const { queue, options } of declarations) {
        try {
          await ch.assertQueue(queue, options);
        } catch (err) {
          if (!/PRECONDITION_FAILED/.test((err as Error).message)) throw err;
          ch = await model.createChannel(); // the refusal closed the channel
          ch.on('error', () => undefined);
          await ch.checkQueue(queue);
          this.options.logger.warn('queue exists with other arguments; using it as it is', {
            queue,
            wanted: options.arguments,
            reason: (err as Error).message,
          });
        }
      }
    } finally {
      await ch.close().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.model = undefined;
    this.setups.clear();
    this.readyWaiters.splice(0).forEach((w) => w.reject(new Error('bus connection closed')));
    await this.recovering.close().catch(() => undefined);
  }
}
