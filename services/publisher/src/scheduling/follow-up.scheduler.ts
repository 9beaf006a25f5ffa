import type { EventEnvelope } from '@postbus/contracts';
import { DelayedSender, type BusConnection } from '@postbus/bus';
import { currentRequestId } from '@postbus/kit';

/** Why a post comes back: a retry after a transient error, a processing check, a rate-limit deferral, a wait for a live owner. */
export type FollowUpKind = 'retry' | 'check' | 'defer' | 'park';

export const FOLLOW_UP_HEADERS = {
  kind: 'x-publisher-step',
  seq: 'x-publisher-seq',
  notBefore: 'x-not-before',
} as const;

/**
 * Puts a post back on the publisher's work queue after a delay, without holding a worker (a
 * delayed send of `@postbus/bus`, at least once). `x-not-before` guards against an early
 * release, which the handler parks again for the rest.
 */
export class FollowUpScheduler {
  private constructor(private readonly sender: DelayedSender) {}

  static async create(bus: BusConnection, workQueueLocalName: string): Promise<FollowUpScheduler> {
    return new FollowUpScheduler(await DelayedSender.create(bus, workQueueLocalName));
  }

  /** Resolves once the broker confirmed the follow-up; it carries `seq`, the only value that may continue the post. */
  async schedule(
    event: EventEnvelope,
    next: { kind: FollowUpKind; seq: number | null; delayMs: number; headers?: Record<string, unknown> },
  ): Promise<void> {
    const delay = Math.max(0, Math.round(next.delayMs));
    const headers: Record<string, unknown> = {
      ...next.headers,
      'x-attempt': 1,
      'x-request-id': currentRequestId() ?? next.headers?.['x-request-id'],
      [FOLLOW_UP_HEADERS.kind]: next.kind,
      [FOLLOW_UP_HEADERS.notBefore]: Date.now() + delay,
    };
    if (next.seq === null) delete headers[FOLLOW_UP_HEADERS.seq];
    else headers[FOLLOW_UP_HEADERS.seq] = next.seq;
    await this.sender.send(event, delay, headers);
  }
}
