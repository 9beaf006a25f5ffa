import { randomUUID } from 'node:crypto';
import { Events } from '@postbus/contracts';
import type { Bus, EventConsumer } from '@postbus/bus';
import { publishPost } from '../publishing/publish-post.use-case';
import type { PublishPorts } from '../publishing/publish-ports';
import type { CachedCredentials } from '../credentials/credentials.cache';

export const DUE_QUEUE = 'publisher.due';

/**
 * Competing consumers of post.due and of the publisher's own follow-ups (same queue): every
 * publisher process shares it; prefetch = concurrency. The bus's own retries cover failures
 * inside Postbus (database, broker); platform retries are scheduled by the use case.
 */
export function consumeDuePosts(
  bus: Bus,
  ports: PublishPorts,
  opts: { concurrency: number; retryDelaysMs: number[] },
): EventConsumer {
  return bus
    .consume({ queue: DUE_QUEUE, prefetch: opts.concurrency, retryDelaysMs: opts.retryDelaysMs })
    .on(Events.postDue, (event, meta) => publishPost(ports, event, meta.message.properties.headers ?? {}));
}

/** This process's cached credentials of a disconnected profile are dropped at once (a per-process queue). */
export function consumeRevocations(bus: Bus, credentials: CachedCredentials): EventConsumer {
  return bus
    .consume({ queue: `publisher.revocations.${randomUUID()}`, perProcess: true })
    .on(Events.connectionRevoked, (event) => credentials.forget(event.data.accountId, event.data.profileId));
}
