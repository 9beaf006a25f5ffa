import { Type, type Static } from '@sinclair/typebox';
import { defineRpc } from './define';

/**
 * Events a webhook endpoint may subscribe to. post.published and post.failed are announced by the
 * publisher today; post.restricted goes with a post.published whose warnings say fewer people can
 * see the post than were asked for (YouTube kept it private); post.scheduled, post.cancelled and
 * connection.expired are delivered once the service that knows them announces them (posts, connections).
 * post.first_comment and post.thread tell what became of a post's first comment and Threads chain
 * once they settle (the post carries the outcome in firstComment and thread).
 */
export const WEBHOOK_EVENT_TYPES = [
  'post.published',
  'post.failed',
  'post.restricted',
  'post.scheduled',
  'post.cancelled',
  'connection.expired',
  'post.first_comment',
  'post.thread',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;
export const WEBHOOK_DELIVERIES_PAGE_MAX = 100;

const Timestamp = Type.String({ format: 'date-time' });
const EventTypes = Type.Array(Type.Union(WEBHOOK_EVENT_TYPES.map((e) => Type.Literal(e))), {
  minItems: 1,
  uniqueItems: true,
  description: `One or more of ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
});
const TargetUrl = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'An http(s) URL on the public internet that answers 2xx within the timeout.',
});
const Description = Type.String({ maxLength: 500 });

export const WebhookEndpointSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  events: Type.Array(Type.String()),
  status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
  disabledReason: Type.Union([Type.String(), Type.Null()], {
    description: 'Why deliveries stopped (e.g. the endpoint failed for days); null while enabled.',
  }),
  disabledAt: Type.Union([Timestamp, Type.Null()]),
  previousSecretExpiresAt: Type.Union([Timestamp, Type.Null()], {
    description: 'During a secret rotation, until when the previous secret still signs too.',
  }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type WebhookEndpoint = Static<typeof WebhookEndpointSchema>;

/** Creation and rotation answer the secret, once; it is never shown again. */
export const WebhookEndpointWithSecretSchema = Type.Object({
  ...WebhookEndpointSchema.properties,
  secret: Type.String({
    description: '`whsec_` + base64 key: verify the webhook-signature header with it. Shown only now.',
  }),
});
export type WebhookEndpointWithSecret = Static<typeof WebhookEndpointWithSecretSchema>;

export const WebhookCreateSchema = Type.Object(
  { url: TargetUrl, events: EventTypes, description: Type.Optional(Description) },
  { additionalProperties: false },
);
export type WebhookCreate = Static<typeof WebhookCreateSchema>;

export const WebhookUpdateSchema = Type.Object(
  {
    url: Type.Optional(TargetUrl),
    events: Type.Optional(EventTypes),
    description: Type.Optional(Type.Union([Description, Type.Null()])),
    enabled: Type.Optional(
      Type.Boolean({ description: 'false pauses deliveries; true resumes a paused or disabled endpoint.' }),
    ),
  },
  { additionalProperties: false },
);
export type WebhookUpdate = Static<typeof WebhookUpdateSchema>;

export const WebhookListSchema = Type.Object({ data: Type.Array(WebhookEndpointSchema) });

export const WebhookDeletedSchema = Type.Object({
  id: Type.String(),
  status: Type.Literal('deleted'),
  deletedAt: Timestamp,
});

export const WebhookAttemptSchema = Type.Object({
  attemptedAt: Timestamp,
  durationMs: Type.Integer(),
  responseCode: Type.Union([Type.Integer(), Type.Null()], {
    description: 'HTTP status the endpoint answered; null when it did not answer.',
  }),
  error: Type.Union([Type.String(), Type.Null()], {
    description: 'Why the attempt failed (non-2xx, timeout, refused address, …); null on success.',
  }),
});

export const WebhookDeliverySchema = Type.Object({
  id: Type.String({
    description: 'Also the webhook-id header: the same on every attempt, so receivers can deduplicate.',
  }),
  webhookId: Type.String(),
  eventId: Type.String(),
  eventType: Type.String(),
  status: Type.Union(WEBHOOK_DELIVERY_STATUSES.map((s) => Type.Literal(s))),
  responseCode: Type.Union([Type.Integer(), Type.Null()], { description: 'Of the latest attempt.' }),
  attemptCount: Type.Integer(),
  attempts: Type.Array(WebhookAttemptSchema, { description: 'Oldest first.' }),
  nextAttemptAt: Type.Union([Timestamp, Type.Null()], { description: 'While pending.' }),
  deliveredAt: Type.Union([Timestamp, Type.Null()]),
  createdAt: Timestamp,
});
export type WebhookDelivery = Static<typeof WebhookDeliverySchema>;

export const WebhookDeliveryPageSchema = Type.Object({
  data: Type.Array(WebhookDeliverySchema),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as cursor for the next page; null on the last page.',
  }),
});

export const WebhookDeliveriesQuerySchema = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: WEBHOOK_DELIVERIES_PAGE_MAX,
        description: `Items per page, at most ${WEBHOOK_DELIVERIES_PAGE_MAX} (default 20).`,
      }),
    ),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'nextCursor of the previous page.' }),
    ),
  },
  { additionalProperties: false },
);

const WebhookId = { id: Type.String() };

export const WebhooksRpc = {
  webhooksCreate: defineRpc('webhooks.create', WebhookCreateSchema, WebhookEndpointWithSecretSchema),
  webhooksList: defineRpc('webhooks.list', Type.Object({}), WebhookListSchema),
  webhooksGet: defineRpc('webhooks.get', Type.Object(WebhookId), WebhookEndpointSchema),
  webhooksUpdate: defineRpc(
    'webhooks.update',
    Type.Object({ ...WebhookId, patch: WebhookUpdateSchema }),
    WebhookEndpointSchema,
  ),
  webhooksDelete: defineRpc('webhooks.delete', Type.Object(WebhookId), WebhookDeletedSchema),
  /** A new secret, answered once; the previous one keeps signing beside it for 24 hours. */
  webhooksRotateSecret: defineRpc('webhooks.rotateSecret', Type.Object(WebhookId), WebhookEndpointWithSecretSchema),
  webhooksListDeliveries: defineRpc(
    'webhooks.deliveries.list',
    Type.Object({ ...WebhookId, ...WebhookDeliveriesQuerySchema.properties }),
    WebhookDeliveryPageSchema,
  ),
  /** Sends a delivery again now (one attempt), whatever its state. */
  webhooksRetryDelivery: defineRpc(
    'webhooks.deliveries.retry',
    Type.Object({ ...WebhookId, deliveryId: Type.String() }),
    WebhookDeliverySchema,
  ),
  /** Operator: re-seals every stored signing secret under the current WEBHOOK_SECRET_KEY_ID. */
  webhooksRotateSecretKey: defineRpc(
    'webhooks.secrets.rotateKey',
    Type.Object({
      keyId: Type.Optional(Type.String({ description: 'Refuse unless the answering replica seals with this key id.' })),
    }),
    Type.Object({ keyId: Type.String(), rotated: Type.Integer(), alreadyCurrent: Type.Integer() }),
    { anonymous: true, operator: true },
  ),
};
