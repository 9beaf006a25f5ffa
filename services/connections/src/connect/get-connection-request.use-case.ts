import { AppError, type ConnectionRequestState, type Principal } from '@postbus/contracts';
import { toRequestState } from './connection-request.repository';
import type { ConnectPorts } from './connect.ports';

/** Where a request of the principal's account stands; another account's answers as a missing one. */
export async function getConnectionRequest(
  ports: Pick<ConnectPorts, 'requests' | 'clock'>,
  principal: Principal,
  requestId: string,
): Promise<ConnectionRequestState> {
  const row = await ports.requests.findForAccount(principal.accountId, requestId);
  if (!row) throw new AppError('not_found', `No connection request ${requestId}.`);
  return toRequestState(row, ports.clock());
}
