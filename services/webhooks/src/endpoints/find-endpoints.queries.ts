import { AppError, type Principal, type WebhookEndpoint } from '@postbus/contracts';
import { toWebhookEndpoint } from './endpoint-view';
import type { Endpoint } from './endpoint.repository';
import type { EndpointPorts } from './endpoint.ports';

type ReadPorts = Pick<EndpointPorts, 'endpoints' | 'clock'>;

/** The account's endpoint, or not_found (another account's answers exactly the same). */
export async function findOwnEndpoint(
  ports: Pick<EndpointPorts, 'endpoints'>,
  principal: Principal,
  id: string,
): Promise<Endpoint> {
  const endpoint = await ports.endpoints.findForAccount(principal.accountId, id);
  if (!endpoint) throw new AppError('not_found', `No webhook ${id}.`);
  return endpoint;
}

export async function getEndpoint(ports: ReadPorts, principal: Principal, id: string): Promise<WebhookEndpoint> {
  return toWebhookEndpoint(await findOwnEndpoint(ports, principal, id), ports.clock());
}

export async function listEndpoints(ports: ReadPorts, principal: Principal): Promise<{ data: WebhookEndpoint[] }> {
  const now = ports.clock();
  return { data: (await ports.endpoints.listForAccount(principal.accountId)).map((e) => toWebhookEndpoint(e, now)) };
}
