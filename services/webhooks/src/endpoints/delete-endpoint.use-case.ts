import { AppError, type Principal } from '@postbus/contracts';
import type { EndpointPorts } from './endpoint.ports';

/** Deletes an endpoint and cancels its pending deliveries in the same transaction. */
export async function deleteEndpoint(
  ports: EndpointPorts,
  principal: Principal,
  id: string,
): Promise<{ id: string; status: 'deleted'; deletedAt: string }> {
  const now = ports.clock();
  const deleted = await ports.db.transaction(async (m) => {
    const done = await ports.endpoints.markDeleted(m, principal.accountId, id, now);
    if (done) await ports.deliveries.cancelPending(m, id);
    return done;
  });
  if (!deleted) throw new AppError('not_found', `No webhook ${id}.`);
  return { id, status: 'deleted', deletedAt: now.toISOString() };
}
