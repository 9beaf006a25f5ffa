import type { ClientDirectory } from './client-directory';
import { secretMatches } from './client.repository';
import type { GrantRepository } from './grant.repository';
import { InvalidClientError, InvalidRequestError } from './oauth-errors';

export interface RevocationRequest {
  clientId?: string;
  clientSecret?: string;
  token?: unknown;
}

/**
 * Token revocation (RFC 7009). The client authenticates as at the token endpoint. A refresh token
 * revokes its whole grant (every access and refresh token of it); an access token only itself.
 * A token that is unknown, already revoked or another client's answers the same as success.
 */
export async function revokeToken(
  deps: { clients: ClientDirectory; grants: GrantRepository },
  req: RevocationRequest,
): Promise<void> {
  if (!req.clientId)
    throw new InvalidClientError('Invalid client: send client_id (and client_secret for a confidential client).');
  const client = await deps.clients.find(req.clientId);
  if (!client || !secretMatches(client, req.clientSecret))
    throw new InvalidClientError('Invalid client: client authentication failed.');
  if (typeof req.token !== 'string' || !req.token) throw new InvalidRequestError('Missing parameter: token.');
  const row = await deps.grants.findToken(req.token);
  if (!row || row.client_id !== client.id) return;
  if (row.kind === 'refresh') await deps.grants.revokeGrant(row.grant_id, 'refresh token revoked by the client');
  else await deps.grants.revokeToken(row.id);
}
