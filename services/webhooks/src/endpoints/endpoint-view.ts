import type { WebhookEndpoint, WebhookEndpointWithSecret } from '@postbus/contracts';
import type { Endpoint } from './endpoint.repository';

/** An endpoint as the API shows it: never its secrets. */
export function toWebhookEndpoint(e: Endpoint, now: Date): WebhookEndpoint {
  const rotating = e.sealedPreviousSecret && e.previousSecretExpiresAt && e.previousSecretExpiresAt > now;
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events,
    status: e.status === 'enabled' ? 'enabled' : 'disabled',
    disabledReason: e.status === 'enabled' ? null : e.disabledReason,
    disabledAt: e.status === 'enabled' || !e.disabledAt ? null : e.disabledAt.toISOString(),
    previousSecretExpiresAt: rotating ? e.previousSecretExpiresAt!.toISOString() : null,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

/** The answer of a creation or a rotation: the only times the secret is shown (it is stored sealed). */
export function withSecret(e: Endpoint, secret: string, now: Date): WebhookEndpointWithSecret {
  return { ...toWebhookEndpoint(e, now), secret };
}
