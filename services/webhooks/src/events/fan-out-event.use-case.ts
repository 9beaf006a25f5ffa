import type { Database } from '@postbus/kit';
import {
  AppError,
  newId,
  RESTRICTING_WARNING_CODES,
  WEBHOOK_EVENT_TYPES,
  type EventEnvelope,
  type EventOf,
  type Events,
  type Post,
  type WebhookEventType,
} from '@postbus/contracts';
import type { Logger } from '@postbus/kit';
import type { DeliveryRepository } from '../deliveries/delivery.repository';
import type { EndpointRepository } from '../endpoints/endpoint.repository';
import { postAsAnnounced } from './post-as-announced';
import { webhookEventId, type WebhookPayload } from './webhook-payload';

export interface FanOutPorts {
  db: Database;
  endpoints: EndpointRepository;
  deliveries: DeliveryRepository;
  clock: () => Date;
  /** The post as GET returns it, read on behalf of its account; post_not_found when it is not that account's. */
  getPost(accountId: string, postId: string): Promise<Post>;
  /** New deliveries are due: wake the delivery loop. */
  announce(): void;
  logger: Logger;
}

const isWebhookEvent = (name: string): name is WebhookEventType =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(name);

/**
 * An event becomes one delivery per enabled endpoint of the event's account that subscribed to it,
 * committed before the event is acknowledged (a redelivered event adds nothing: one delivery per
 * endpoint and event). Nothing reaches another account's endpoints.
 */
export async function fanOutEvent(
  ports: FanOutPorts,
  event: EventEnvelope,
  opts: { mayWaitForPosts: boolean },
): Promise<number> {
  if (!isWebhookEvent(event.name)) return 0;
  const data: Record<string, unknown> = isRecord(event.data) ? event.data : {};
  const accountId = typeof data.accountId === 'string' ? data.accountId : undefined;
  const subscribers = await ports.endpoints.subscribed(event.name, accountId);
  if (!subscribers.length) return 0;

  let owner = accountId;
  let payloadData: Record<string, unknown> = data;
  if (typeof data.postId === 'string') {
    const candidates = accountId ? [accountId] : [...new Set(subscribers.map((s) => s.accountId))];
    const found = await findPost(ports, data.postId, candidates);
    if (!found) return 0;
    owner = found.accountId;
    payloadData = { post: postAsAnnounced(event.name, found.post, data, opts.mayWaitForPosts) };
  }
  if (!owner) {
    ports.logger.warn('webhook event names no account; not delivered', { event: event.name, eventId: event.id });
    return 0;
  }

  const payload: WebhookPayload = {
    id: webhookEventId(event.id),
    type: event.name,
    timestamp: event.occurredAt,
    data: payloadData,
  };
  const body = JSON.stringify(payload);
  const rows = subscribers
    .filter((s) => s.accountId === owner)
    .map((s) => ({
      id: newId('msg'),
      endpointId: s.id,
      accountId: s.accountId,
      eventId: payload.id,
      eventType: event.name,
      body,
    }));
  const added = await ports.deliveries.insertMany(ports.db, rows, ports.clock());
  if (added) ports.announce();
  return added;
}

/**
 * A post.published, and the post.restricted that rides on it when its warnings say fewer people can
 * see the post (same facts, its own stable id), so it commits with it and is delivered once per
 * endpoint like any other event.
 */
export async function fanOutPublished(
  ports: FanOutPorts,
  event: EventOf<typeof Events.postPublished>,
  opts: { mayWaitForPosts: boolean },
): Promise<number> {
  const restricting = (event.data.warnings ?? []).some((w) =>
    (RESTRICTING_WARNING_CODES as readonly string[]).includes(w.code),
  );
  const published = await fanOutEvent(ports, event, opts);
  return (
    published +
    (restricting
      ? await fanOutEvent(ports, { ...event, id: `${event.id}:restricted`, name: 'post.restricted' }, opts)
      : 0)
  );
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * The post and its account. Events announced before they carried accountId are matched by asking
 * posts on behalf of each subscribed account in turn: only the owner's read succeeds.
 */
async function findPost(
  ports: FanOutPorts,
  postId: string,
  accountIds: string[],
): Promise<{ accountId: string; post: Post } | undefined> {
  for (const accountId of accountIds) {
    try {
      return { accountId, post: await ports.getPost(accountId, postId) };
    } catch (err) {
      if (err instanceof AppError && err.code === 'post_not_found') continue;
      throw err;
    }
  }
  return undefined;
}
