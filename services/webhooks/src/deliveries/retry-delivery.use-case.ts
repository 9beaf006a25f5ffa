import { AppError, type Principal, type WebhookDelivery } from '@postbus/contracts';
import type { EndpointPorts } from '../endpoints/endpoint.ports';
import { findOwnEndpoint } from '../endpoints/find-endpoints.queries';
import { toWebhookDelivery } from './delivery-view';

/** Sends a delivery again now: same webhook-id and body, a fresh timestamp and signature. */
export async function retryDelivery(
  ports: EndpointPorts,
  principal: Principal,
  id: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  const endpoint = await findOwnEndpoint(ports, principal, id);
  const delivery = await ports.deliveries.retryNow(endpoint.id, deliveryId, ports.clock());
  if (!delivery) throw new AppError('not_found', `No delivery ${deliveryId} for webhook ${id}.`);
  ports.announce();
  const attempts = await ports.deliveries.attemptsOf([delivery.id]);
  return toWebhookDelivery(delivery, attempts.get(delivery.id) ?? []);
}
