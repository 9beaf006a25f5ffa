import { AppError, type Principal } from '@postbus/contracts';
import { isEntitled, type PlanQuotas } from '../accounts/plans';
import { hashKey, lookupOf, sameHash } from './api-key';
import type { ApiKeyRepository } from './api-key.repository';
import { scopesAt } from './legacy-webhook-scopes';

/** Resolves a bearer API key to a Principal (with the plan's quotas when `quotasFor` is given), or refuses with the spec's code. */
export async function verifyApiKey(
  keys: Pick<ApiKeyRepository, 'findWithOwner' | 'markUsed'>,
  token: string,
  now = new Date(),
  quotasFor?: (plan: string) => PlanQuotas,
): Promise<Principal> {
  const lookup = lookupOf(token);
  if (!lookup) throw new AppError('invalid_api_key', 'The API key is not valid.');
  const key = await keys.findWithOwner(lookup);
  if (!key || !sameHash(hashKey(token), key.hash)) throw new AppError('invalid_api_key', 'The API key is not valid.');
  if (key.revoked_at) throw new AppError('invalid_api_key', 'The API key has been revoked.');
  if (key.expires_at && new Date(key.expires_at) <= now)
    throw new AppError('invalid_api_key', 'The API key has expired.');
  if (!key.account_exists || key.account_disabled)
    throw new AppError('api_access_disabled', 'API access is disabled for this account.');
  if (key.user_disabled !== false) throw new AppError('api_access_disabled', 'The user owning this key is disabled.');
  if (!isEntitled({ plan: key.plan ?? '', tester: !!key.tester, trial_ends_at: key.trial_ends_at ?? new Date(0) }, now))
    throw new AppError('plan_required', 'The free trial has ended; choose a plan to keep using the API.');

  if (!key.last_used_at || now.getTime() - new Date(key.last_used_at).getTime() > 60_000) {
    await keys.markUsed(key.id, now);
  }
  return {
    accountId: key.account_id,
    userId: key.user_id,
    credential: { type: 'api_key', id: key.id },
    ...scopesAt(key, now),
    profileIds: key.profile_ids,
    ...(quotasFor && { quotas: quotasFor(key.plan ?? '') }),
  };
}
