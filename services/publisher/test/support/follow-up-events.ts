import { randomBytes } from 'node:crypto';
import type { Bus } from '@postbus/bus';
import { Events, type EventEnvelope } from '@postbus/contracts';
import { waitFor } from '@postbus/testing';

/** What the publisher announced of the follow-ups (post.first_comment, post.thread) once a post was published. */
export interface FollowUpEvents {
  /** Every announcement so far, in the order it arrived. */
  received: EventEnvelope<any>[];
  /** The announcement `name` of the post, once it has arrived. */
  announced(name: string, postId: string): Promise<EventEnvelope<any>>;
  stop(): Promise<void>;
}

/** Starts collecting the follow-up announcements on a queue of its own (`test.{label}.…`). */
export async function collectFollowUps(bus: Bus, label: string): Promise<FollowUpEvents> {
  const received: EventEnvelope<any>[] = [];
  const consumer = bus.consume({
    queue: `test.${label}.${randomBytes(3).toString('hex')}`,
    perProcess: true,
    events: [Events.postFirstComment.name, Events.postThread.name],
    handler: async (event) => void received.push(event),
  });
  await consumer.start();
  return {
    received,
    announced: (name, postId) =>
      waitFor(() => received.find((e) => e.name === name && e.data.postId === postId), {
        timeoutMs: 20_000,
        what: `${name} of ${postId}`,
      }),
    stop: () => consumer.stop().catch(() => undefined),
  };
}
