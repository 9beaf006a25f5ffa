import { AppError, type Principal, type WebhookEndpoint, type WebhookUpdate } from '@postbus/contracts';
import { toWebhookEndpoint } from './endpoint-view';
import type { EndpointChange } from './endpoint.repository';
import type { EndpointPorts } from './endpoint.ports';
import { findOwnEndpoint } from './find-endpoints.queries';

export const PAUSED_REASON = 'Paused by the account (PATCH with "enabled": false).';

/**
 * Changes an endpoint. A new URL passes the SSRF guard first. Pausing cancels what is pending
 * (each can be sent again by hand); resuming clears the reason and starts a fresh run of attempts.
 */
export async function updateEndpoint(
  ports: EndpointPorts,
  principal: Principal,
  id: string,
  patch: WebhookUpdate,
): Promise<WebhookEndpoint> {
  const current = await findOwnEndpoint(ports, principal, id);
  if (patch.url !== undefined && patch.url !== current.url) await ports.checkTarget(patch.url);
  const now = ports.clock();
  const change: EndpointChange = { url: patch.url, events: patch.events, description: patch.description };
  if (patch.enabled === true && current.status !== 'enabled')
    Object.assign(change, { status: 'enabled', disabledReason: null, disabledAt: null, failingSince: null });
  if (patch.enabled === false && current.status === 'enabled')
    Object.assign(change, { status: 'disabled', disabledReason: PAUSED_REASON, disabledAt: now });
  const updated = await ports.db.transaction(async (m) => {
    const done = await ports.endpoints.change(m, id, change, now, principal.accountId);
    if (done && change.status === 'disabled') await ports.deliveries.cancelPending(m, id);
    return done;
  });
  if (!updated) throw new AppError('not_found', `No webhook ${id}.`);
  return toWebhookEndpoint(updated, now);
}
