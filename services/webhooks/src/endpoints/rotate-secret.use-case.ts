import { AppError, type Principal, type WebhookEndpointWithSecret } from '@postbus/contracts';
import { withSecret } from './endpoint-view';
import type { EndpointPorts } from './endpoint.ports';
import { newWebhookSecret, ROTATION_OVERLAP_MS } from './webhook-secret';

/**
 * A new secret, shown once. The one it replaces keeps signing beside it for 24 hours, so receivers
 * can switch without losing a delivery; a second rotation within that time drops the oldest.
 */
export async function rotateSecret(
  ports: EndpointPorts,
  principal: Principal,
  id: string,
): Promise<WebhookEndpointWithSecret> {
  const now = ports.clock();
  const secret = newWebhookSecret();
  const rotated = await ports.endpoints.rotate(
    principal.accountId,
    id,
    secret,
    new Date(now.getTime() + ROTATION_OVERLAP_MS),
    now,
  );
  if (!rotated) throw new AppError('not_found', `No webhook ${id}.`);
  return withSecret(rotated, secret, now);
}
