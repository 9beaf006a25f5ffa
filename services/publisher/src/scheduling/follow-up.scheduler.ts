import type { ConfirmChannel } from 'amqplib';
import type { EventEnvelope } from '@postbus/contracts';
import type { BusConnection } from '@postbus/bus';
import { currentRequestId } from '@postbus/kit';

/** Why a post comes back: a retry after a transient error, a processing check, a rate-limit deferral, a wait for a live owner. */
export type FollowUpKind = 'retry' | 'check' | 'defer' | 'park';

export const FOLLOW_UP_HEADERS = { kind: 'x-publisher-step', seq: 'x-publisher-seq', notBefore: 'x-not-before' } as const;

/**
 * Delay queues, in milliseconds: a follow-up waits in the smallest one that covers its delay,
 * its own expiration releasing it on time unless one queued before it expires later (then it
 * waits at most that queue's delay). Few levels: each is a replicated queue on the broker.
 */
const LEVELS_MS = [50, 250, 1000, 5000, 30_000, 120_000, 600_000, 3_600_000];

/**
 * Puts a post back on the publisher's work queue after a delay, without holding a worker:
 * the message waits in a TTL queue (`<queue>.wait.<ms>`) that dead-letters into the work
 * queue (at least once). Per-message expiration trims the wait to the delay asked for;
 * `x-not-before` guards against an early release, which the handler parks again for the rest.
 */
export class FollowUpScheduler {
  private channel?: ConfirmChannel;

  private constructor(private readonly workQueue: string) {}

  static async create(bus: BusConnection, workQueueLocalName: string): Promise<FollowUpScheduler> {
    const scheduler = new FollowUpScheduler(bus.name(workQueueLocalName));
    await bus.register(async (model) => {
      await bus.declareQueues(
        model,
        LEVELS_MS.map((level) => bus.delayQueue(scheduler.delayQueue(level), level, scheduler.workQueue)),
      );
      const ch = await model.createConfirmChannel();
      ch.on('error', () => undefined);
      ch.on('close', () => {
        if (scheduler.channel === ch) scheduler.channel = undefined;
      });
      scheduler.channel = ch;
    });
    return scheduler;
  }

  /** Resolves once the broker confirmed the follow-up; it carries `seq`, the only value that may continue the post. */
  async schedule(event: EventEnvelope, next: { kind: FollowUpKind; seq: number | null; delayMs: number; headers?: Record<string, unknown> }): Promise<void> {
    const ch = this.channel;
    if (!ch) throw new Error('broker not connected');
    const delay = Math.max(0, Math.round(next.delayMs));
    const level = LEVELS_MS.find((l) => l >= delay) ?? LEVELS_MS[LEVELS_MS.length - 1];
    const headers: Record<string, unknown> = {
      ...next.headers,
      'x-attempt': 1,
      'x-request-id': currentRequestId() ?? next.headers?.['x-request-id'],
      [FOLLOW_UP_HEADERS.kind]: next.kind,
      [FOLLOW_UP_HEADERS.notBefore]: Date.now() + delay,
    };
    if (next.seq === null) delete headers[FOLLOW_UP_HEADERS.seq];
    else headers[FOLLOW_UP_HEADERS.seq] = next.seq;
    const queue = delay === 0 ? this.workQueue : this.delayQueue(level);
    await new Promise<void>((resolve, reject) =>
      ch.sendToQueue(
        queue,
        Buffer.from(JSON.stringify(event)),
        {
          messageId: event.id,
          type: event.name,
          contentType: 'application/json',
          persistent: true,
          headers,
          ...(delay > 0 && delay < level && { expiration: String(delay) }),
        },
        (err) => (err ? reject(new Error('broker refused a follow-up')) : resolve()),
      ),
    );
  }

  private delayQueue(level: number): string {
    return `${this.workQueue}.wait.${level}`;
  }
}
