import { Type } from '@sinclair/typebox';
import { Rpc } from '../rpc';
import {
  WebhookCreateSchema,
  WebhookDeletedSchema,
  WebhookDeliveryPageSchema,
  WebhookDeliverySchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
  WebhookListSchema,
  WebhookUpdateSchema,
} from '../rpc/webhooks';
import type { RouteDef } from './define';

/**
 * Endpoints that receive signed publish-result events. Managed by programs over REST only (no agent
 * tools), with webhook:read and webhook:write, by keys that may use every profile (an endpoint
 * receives every profile's events).
 */
export const WebhookRoutes = {
  createWebhook: {
    id: 'createWebhook',
    method: 'post',
    path: '/api/v1/webhooks',
    scope: 'webhook:write',
    summary:
      'Register an endpoint for events (post.published, post.failed, …). The answer carries its signing secret, shown only this once.',
    rpc: Rpc.webhooksCreate,
    body: WebhookCreateSchema,
    response: WebhookEndpointWithSecretSchema,
    status: 201,
  },
  listWebhooks: {
    id: 'listWebhooks',
    method: 'get',
    path: '/api/v1/webhooks',
    scope: 'webhook:read',
    summary: "List the account's webhook endpoints, newest first.",
    rpc: Rpc.webhooksList,
    response: WebhookListSchema,
    status: 200,
  },
  getWebhook: {
    id: 'getWebhook',
    method: 'get',
    path: '/api/v1/webhooks/{id}',
    scope: 'webhook:read',
    summary: 'Read a webhook endpoint: its events, and whether it is enabled or disabled (with the reason).',
    rpc: Rpc.webhooksGet,
    response: WebhookEndpointSchema,
    status: 200,
  },
  updateWebhook: {
    id: 'updateWebhook',
    method: 'patch',
    path: '/api/v1/webhooks/{id}',
    scope: 'webhook:write',
    summary:
      'Change the URL, events or description of an endpoint, or pause (`enabled: false`) and resume (`enabled: true`) it.',
    rpc: Rpc.webhooksUpdate,
    body: WebhookUpdateSchema,
    response: WebhookEndpointSchema,
    status: 200,
  },
  deleteWebhook: {
    id: 'deleteWebhook',
    method: 'delete',
    path: '/api/v1/webhooks/{id}',
    scope: 'webhook:write',
    summary: 'Delete an endpoint: nothing more is delivered to it, pending deliveries included.',
    rpc: Rpc.webhooksDelete,
    response: WebhookDeletedSchema,
    status: 200,
  },
  rotateWebhookSecret: {
    id: 'rotateWebhookSecret',
    method: 'post',
    path: '/api/v1/webhooks/{id}/rotate-secret',
    scope: 'webhook:write',
    summary:
      'Issue a new signing secret, shown only in this answer. For 24 hours deliveries carry signatures with both the new and the previous secret.',
    rpc: Rpc.webhooksRotateSecret,
    response: WebhookEndpointWithSecretSchema,
    status: 200,
  },
  listWebhookDeliveries: {
    id: 'listWebhookDeliveries',
    method: 'get',
    path: '/api/v1/webhooks/{id}/deliveries',
    scope: 'webhook:read',
    summary: "Deliveries to an endpoint, newest first: status, response code and every attempt's time.",
    rpc: Rpc.webhooksListDeliveries,
    query: Type.Object({
      limit: Type.Optional(Type.String({ description: 'Page size, 1 to 100 (default 20).' })),
      cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page.' })),
    }),
    response: WebhookDeliveryPageSchema,
    status: 200,
  },
  retryWebhookDelivery: {
    id: 'retryWebhookDelivery',
    method: 'post',
    path: '/api/v1/webhooks/{id}/deliveries/{deliveryId}/retry',
    scope: 'webhook:write',
    summary:
      'Send a delivery again now (one attempt, same webhook-id, fresh timestamp and signature); answers the delivery, pending.',
    rpc: Rpc.webhooksRetryDelivery,
    response: WebhookDeliverySchema,
    status: 200,
  },
} satisfies Record<string, RouteDef>;
