import { AppError, type Principal, type WebhookDelivery } from '@postbus/contracts';
import type { EndpointPorts } from '../endpoints/endpoint.ports';
import { findOwnEndpoint } from '../endpoints/find-endpoints.queries';
import { toWebhookDelivery } from './delivery-view';

const DEFAULT_PAGE = 20;
const BAD_CURSOR = 'cursor: not a cursor of this list; pass nextCursor from the previous page.';

/** An endpoint's deliveries, newest first, each with its attempts. */
export async function listDeliveries(
  ports: Pick<EndpointPorts, 'endpoints' | 'deliveries'>,
  principal: Principal,
  q: { id: string; limit?: number; cursor?: string },
): Promise<{ data: WebhookDelivery[]; nextCursor: string | null }> {
  const endpoint = await findOwnEndpoint(ports, principal, q.id);
  const limit = q.limit ?? DEFAULT_PAGE;
  const afterId = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
  // One more than asked tells whether a next page exists.
  const rows = await ports.deliveries.page(endpoint.id, limit + 1, afterId);
  if (!rows) throw new AppError('validation_error', BAD_CURSOR);
  const page = rows.slice(0, limit);
  const attempts = await ports.deliveries.attemptsOf(page.map((d) => d.id));
  return {
    data: page.map((d) => toWebhookDelivery(d, attempts.get(d.id) ?? [])),
    nextCursor: rows.length > limit ? Buffer.from(page[page.length - 1].id).toString('base64url') : null,
  };
}

function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^msg_\w+$/.test(id)) throw new AppError('validation_error', BAD_CURSOR);
  return id;
}
