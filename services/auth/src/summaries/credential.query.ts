import type { AccountOverview, Principal } from '@postbus/contracts';
import type { ApiKeyRepository } from '../keys/api-key.repository';
import type { GrantRepository } from '../oauth/grant.repository';

/** The key (or OAuth access token) behind a principal: its name and expiry, from auth's own tables. */
export async function describeCredential(
  ports: { keys: Pick<ApiKeyRepository, 'find'>; grants: Pick<GrantRepository, 'describeToken'> },
  principal: Principal,
): Promise<AccountOverview['credential']> {
  const { type, id } = principal.credential;
  const found =
    type === 'api_key'
      ? await ports.keys.find(id, principal.accountId).then((k) => k && { name: k.name, expiresAt: k.expires_at })
      : type === 'oauth'
        ? await ports.grants.describeToken(id, principal.accountId)
        : undefined;
  return {
    type,
    id,
    name: found?.name ?? null,
    scopes: principal.scopes,
    profileIds: principal.profileIds,
    expiresAt: found?.expiresAt ? new Date(found.expiresAt).toISOString() : null,
  };
}
