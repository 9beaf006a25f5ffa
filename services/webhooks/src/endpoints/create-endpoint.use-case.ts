import { newId, type Principal, type WebhookCreate, type WebhookEndpointWithSecret } from '@postbus/contracts';
import { withSecret } from './endpoint-view';
import type { EndpointPorts } from './endpoint.ports';
import { newWebhookSecret } from './webhook-secret';

/** Registers an endpoint once its URL passes the SSRF guard; the answer is the only time its secret is shown. */
export async function createEndpoint(
  ports: EndpointPorts,
  principal: Principal,
  input: WebhookCreate,
): Promise<WebhookEndpointWithSecret> {
  await ports.checkTarget(input.url);
  const now = ports.clock();
  const secret = newWebhookSecret();
  const endpoint = await ports.endpoints.insert(
    {
      id: newId('whk'),
      accountId: principal.accountId,
      url: input.url,
      description: input.description ?? null,
      events: input.events,
      secret,
    },
    now,
  );
  return withSecret(endpoint, secret, now);
}
