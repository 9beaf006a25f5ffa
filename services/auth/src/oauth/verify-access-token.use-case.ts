import { AppError, type Principal } from '@postbus/contracts';
import type { AccountRepository } from '../accounts/account.repository';
import { assertMayUseApi } from '../accounts/api-access';
import { grantOutlived } from './grant-lifetime';
import type { GrantRepository } from './grant.repository';

const invalid = (why: string) => new AppError('invalid_api_key', why);

/**
 * An OAuth access token presented to `resource` → the Principal of the user who consented:
 * refused when unknown, revoked (itself or its grant), expired, or issued for another resource
 * (its audience, RFC 8707), or when its grant has outlived its maximum lifetime; the account must
 * still be allowed to use the API.
 */
export async function verifyAccessToken(
  deps: { accounts: Pick<AccountRepository, 'findApiAccess'>; grants: GrantRepository; grantMaxMs: number },
  token: string,
  resource: string,
  now = new Date(),
): Promise<Principal> {
  const row = token.startsWith('oat_') ? await deps.grants.findToken(token) : undefined;
  if (!row || row.kind !== 'access') throw invalid('The access token is not valid.');
  if (row.revoked_at || row.grant_revoked_at) throw invalid('The access token has been revoked.');
  if (new Date(row.expires_at) <= now) throw invalid('The access token has expired.');
  if (grantOutlived(row.grant_created_at, deps.grantMaxMs, now))
    throw invalid('The authorization behind this access token has reached its maximum lifetime.');
  if (row.resource !== resource) throw invalid('The access token was issued for another resource.');
  await assertMayUseApi(deps.accounts, row.user_id, row.account_id, now);
  await deps.grants.markUsed(row.grant_id);
  return {
    accountId: row.account_id,
    userId: row.user_id,
    credential: { type: 'oauth', id: row.id },
    scopes: row.scopes,
    profileIds: 'all',
  };
}
