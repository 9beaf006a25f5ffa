import { Rpc } from '@postbus/contracts';
import type { RpcServer } from '@postbus/bus';
import { listDeliveries } from '../deliveries/list-deliveries.use-case';
import { retryDelivery } from '../deliveries/retry-delivery.use-case';
import { createEndpoint } from '../endpoints/create-endpoint.use-case';
import { deleteEndpoint } from '../endpoints/delete-endpoint.use-case';
import type { EndpointPorts } from '../endpoints/endpoint.ports';
import { getEndpoint, listEndpoints } from '../endpoints/find-endpoints.queries';
import { rotateSecret } from '../endpoints/rotate-secret.use-case';
import { updateEndpoint } from '../endpoints/update-endpoint.use-case';

/** One line per command: the input is validated against its contract by the RPC server. */
export function registerRpc(rpc: RpcServer, ports: EndpointPorts): void {
  rpc.handle(Rpc.webhooksCreate, (input, { principal }) => createEndpoint(ports, principal, input));
  rpc.handle(Rpc.webhooksList, (_input, { principal }) => listEndpoints(ports, principal));
  rpc.handle(Rpc.webhooksGet, ({ id }, { principal }) => getEndpoint(ports, principal, id));
  rpc.handle(Rpc.webhooksUpdate, ({ id, patch }, { principal }) => updateEndpoint(ports, principal, id, patch));
  rpc.handle(Rpc.webhooksDelete, ({ id }, { principal }) => deleteEndpoint(ports, principal, id));
  rpc.handle(Rpc.webhooksRotateSecret, ({ id }, { principal }) => rotateSecret(ports, principal, id));
  rpc.handle(Rpc.webhooksListDeliveries, (query, { principal }) => listDeliveries(ports, principal, query));
  rpc.handle(Rpc.webhooksRetryDelivery, ({ id, deliveryId }, { principal }) => retryDelivery(ports, principal, id, deliveryId));
}
