import type { Request } from 'express';
import { Routes } from '@postbus/contracts';
import type { RouteBinding } from './binding';
import { queryValue } from './query-values';

/** ?limit=&cursor= as the RPC expects them; a limit that is not a number reaches validation as is and is refused there. */
function deliveriesQuery(req: Request): Record<string, unknown> {
  const q: Record<string, unknown> = { id: req.params.id };
  const limit = queryValue(req.query.limit);
  if (limit !== undefined) q.limit = /^\d{1,6}$/.test(limit) ? Number(limit) : limit;
  const cursor = queryValue(req.query.cursor);
  if (cursor !== undefined) q.cursor = cursor;
  return q;
}

export const webhookBindings: RouteBinding[] = [
  { route: Routes.createWebhook, input: (req) => req.body ?? {} },
  { route: Routes.listWebhooks, input: () => ({}) },
  { route: Routes.getWebhook, input: (req) => ({ id: req.params.id }) },
  { route: Routes.updateWebhook, input: (req) => ({ id: req.params.id, patch: req.body ?? {} }) },
  { route: Routes.deleteWebhook, input: (req) => ({ id: req.params.id }) },
  { route: Routes.rotateWebhookSecret, input: (req) => ({ id: req.params.id }) },
  { route: Routes.listWebhookDeliveries, input: deliveriesQuery },
  { route: Routes.retryWebhookDelivery, input: (req) => ({ id: req.params.id, deliveryId: req.params.deliveryId }) },
];
