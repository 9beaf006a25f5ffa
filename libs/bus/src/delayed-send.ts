import type { ConfirmChannel } from 'amqplib';
import type { EventEnvelope } from '@postbus/contracts';
import type { BusConnection } from './connection';

/**
 * Delay queues, in milliseconds: a message waits in the smallest one that covers its delay,
 * its own expiration releasing it on time unless one queued before it expires later (then it
 * waits at most that queue's delay). Few levels: each is a replicated queue on the broker.
 */
export const DELAY_LEVELS_MS = [50, 250, 1000, 5000, 30_000, 120_000, 600_000, 3_600_000] as const;

/**
 * Sends an event to a work queue after a delay, without holding a consumer: the message waits
 * in a TTL queue (`<queue>.wait.<ms>`) that dead-letters into the work queue (at least once).
 * Per-message expiration trims the wait to the delay asked for. A delay longer than the largest
 * level waits that level's time; a release can also come early, so a receiver that must not act
 * before a time carries it in a header and sends the message again for the rest.
 */
export class DelayedSender {
  private channel?: ConfirmChannel;

  private constructor(
    /** The work queue (full name) the messages end up in. */
    readonly target: string,
    private readonly levels: readonly number[],
  ) {}

  /** Declares the delay queues of `targetLocalName` (again after each reconnect) and opens a confirm channel. */
  static async create(
    bus: BusConnection,
    targetLocalName: string,
    levels: readonly number[] = DELAY_LEVELS_MS,
  ): Promise<DelayedSender> {
    const sender = new DelayedSender(
      bus.name(targetLocalName),
      [...levels].sort((a, b) => a - b),
    );
    await bus.register(async (model) => {
      await bus.declareQueues(
        model,
        sender.levels.map((level) => bus.delayQueue(sender.delayQueue(level), level, sender.target)),
      );
      const ch = await model.createConfirmChannel();
      ch.on('error', () => undefined);
      ch.on('close', () => {
        if (sender.channel === ch) sender.channel = undefined;
      });
      sender.channel = ch;
    });
    return sender;
  }

  /** The delay queue a message asking for `delayMs` waits in (the target itself for no delay). */
  queueFor(delayMs: number): string {
    const delay = wholeDelay(delayMs);
    return delay === 0 ? this.target : this.delayQueue(this.levelFor(delay));
  }

  /** Resolves once the broker confirmed the message (persistent, with `headers` as given). */
  async send(event: EventEnvelope, delayMs: number, headers: Record<string, unknown>): Promise<void> {
    const ch = this.channel;
    if (!ch) throw new Error('broker not connected');
    const delay = wholeDelay(delayMs);
    const level = this.levelFor(delay);
    await new Promise<void>((resolve, reject) =>
      ch.sendToQueue(
        this.queueFor(delay),
        Buffer.from(JSON.stringify(event)),
        {
          messageId: event.id,
          type: event.name,
          contentType: 'application/json',
          persistent: true,
          headers,
          ...(delay > 0 && delay < level && { expiration: String(delay) }),
        },
        (err) => (err ? reject(new Error('broker refused a delayed message')) : resolve()),
      ),
    );
  }

  private levelFor(delay: number): number {
    return this.levels.find((l) => l >= delay) ?? this.levels[this.levels.length - 1];
  }

  private delayQueue(level: number): string {
    return `${this.target}.wait.${level}`;
  }
}

function wholeDelay(delayMs: number): number {
  return Math.max(0, Math.round(delayMs));
}
