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
import { assertMayUseWebhooks } from '../endpoints/webhook-access';

/** One line per command: the input is validated against its contract by the RPC server; every command is refused to a key limited to some profiles. */
export function registerRpc(rpc: RpcServer, ports: EndpointPorts): void {
  const handle: RpcServer['handle'] = (def, handler) =>
    rpc.handle(def, (input, ctx) => {
      if (ctx.principal) assertMayUseWebhooks(ctx.principal);
      return handler(input, ctx);
    });
  handle(Rpc.webhooksCreate, (input, { principal }) => createEndpoint(ports, principal, input));
  handle(Rpc.webhooksList, (_input, { principal }) => listEndpoints(ports, principal));
  handle(Rpc.webhooksGet, ({ id }, { principal }) => getEndpoint(ports, principal, id));
  handle(Rpc.webhooksUpdate, ({ id, patch }, { principal }) => updateEndpoint(ports, principal, id, patch));
  handle(Rpc.webhooksDelete, ({ id }, { principal }) => deleteEndpoint(ports, principal, id));
  handle(Rpc.webhooksRotateSecret, ({ id }, { principal }) => rotateSecret(ports, principal, id));
  handle(Rpc.webhooksListDeliveries, (query, { principal }) => listDeliveries(ports, principal, query));
  handle(Rpc.webhooksRetryDelivery, ({ id, deliveryId }, { principal }) =>
    retryDelivery(ports, principal, id, deliveryId),
  );
}
