import { AppError, type Principal } from '@postbus/contracts';
import type { AccountRepository } from '../accounts/account.repository';
import { assertMayUseApi } from '../accounts/api-access';
import type { ApiKeyRepository } from '../keys/api-key.repository';
import { scopesAt } from '../keys/legacy-webhook-scopes';
import type { McpJwt } from './mcp-jwt';

/**
 * A JWT from the deprecated exchange → the principal of the API key it was issued for. The key is
 * read again at every use, so revoking the key (or its expiry) ends its JWTs at once.
 */
export async function verifyMcpJwt(
  ports: { keys: Pick<ApiKeyRepository, 'find'>; accounts: Pick<AccountRepository, 'findApiAccess'> },
  jwt: McpJwt,
  token: string,
  resource: string,
  now = new Date(),
): Promise<Principal> {
  const check = await jwt.verify(token, resource, now);
  if (!check.ok) throw new AppError('invalid_api_key', check.reason);
  const key = await ports.keys.find(check.claims.keyId);
  if (!key || key.account_id !== check.claims.accountId || key.user_id !== check.claims.userId)
    throw new AppError('invalid_api_key', 'The token is not valid.');
  if (key.revoked_at) throw new AppError('invalid_api_key', 'The API key this token was issued for has been revoked.');
  if (key.expires_at && new Date(key.expires_at) <= now)
    throw new AppError('invalid_api_key', 'The API key this token was issued for has expired.');
  await assertMayUseApi(ports.accounts, key.user_id, key.account_id, now);
  return {
    accountId: key.account_id,
    userId: key.user_id,
    credential: { type: 'api_key', id: key.id },
    ...scopesAt(key, now),
    profileIds: key.profile_ids,
  };
}
