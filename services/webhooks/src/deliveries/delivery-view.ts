import type { WebhookDelivery } from '@postbus/contracts';
import type { Attempt, Delivery } from './delivery.repository';

export function toWebhookDelivery(d: Delivery, attempts: Attempt[]): WebhookDelivery {
  return {
    id: d.id,
    webhookId: d.endpointId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    responseCode: d.lastResponseCode,
    attemptCount: d.attemptCount,
    attempts: attempts.map((a) => ({
      attemptedAt: a.attemptedAt.toISOString(),
      durationMs: a.durationMs,
      responseCode: a.responseCode,
      error: a.error,
    })),
    nextAttemptAt: d.status === 'pending' && d.nextAttemptAt ? d.nextAttemptAt.toISOString() : null,
    deliveredAt: d.deliveredAt ? d.deliveredAt.toISOString() : null,
    createdAt: d.createdAt.toISOString(),
  };
}
