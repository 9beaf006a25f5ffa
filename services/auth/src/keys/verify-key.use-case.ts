import type { DataSource } from 'typeorm';
import { AppError, type Principal } from '@postbus/contracts';
import { isEntitled, type PlanQuotas } from '../accounts/plans';
import { hashKey, lookupOf, sameHash } from './api-key';
import { scopesAt } from './legacy-webhook-scopes';

interface KeyJoin {
  id: string;
  account_id: string;
  user_id: string;
  hash: Buffer;
  scopes: string[];
  legacy_webhook_scopes: boolean;
  profile_ids: 'all' | string[];
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  user_disabled: boolean | null;
  account_disabled: boolean | null;
  account_exists: string | null;
  plan: string | null;
  tester: boolean | null;
  trial_ends_at: Date | null;
}

/** Resolves a bearer API key to a Principal (with the plan's quotas when `quotasFor` is given), or refuses with the spec's code. */
export async function verifyApiKey(ds: DataSource, token: string, now = new Date(), quotasFor?: (plan: string) => PlanQuotas): Promise<Principal> {
  const lookup = lookupOf(token);
  if (!lookup) throw new AppError('invalid_api_key', 'The API key is not valid.');
  const rows: KeyJoin[] = await ds.query(
    `SELECT k.id, k.account_id, k.user_id, k.hash, k.scopes, k.legacy_webhook_scopes, k.profile_ids, k.expires_at, k.revoked_at, k.last_used_at,
            u.disabled AS user_disabled, a.id AS account_exists, a.disabled AS account_disabled, a.plan, a.tester, a.trial_ends_at
       FROM api_keys k
       LEFT JOIN users u ON u.id = k.user_id
       LEFT JOIN accounts a ON a.id = k.account_id
      WHERE k.prefix = $1`,
    [lookup],
  );
  const key = rows[0];
  if (!key || !sameHash(hashKey(token), key.hash)) throw new AppError('invalid_api_key', 'The API key is not valid.');
  if (key.revoked_at) throw new AppError('invalid_api_key', 'The API key has been revoked.');
  if (key.expires_at && new Date(key.expires_at) <= now) throw new AppError('invalid_api_key', 'The API key has expired.');
  if (!key.account_exists || key.account_disabled) throw new AppError('api_access_disabled', 'API access is disabled for this account.');
  if (key.user_disabled !== false) throw new AppError('api_access_disabled', 'The user owning this key is disabled.');
  if (!isEntitled({ plan: key.plan ?? '', tester: !!key.tester, trial_ends_at: key.trial_ends_at ?? new Date(0) }, now)) throw new AppError('plan_required', 'The free trial has ended; choose a plan to keep using the API.');

  if (!key.last_used_at || now.getTime() - new Date(key.last_used_at).getTime() > 60_000) {
    await ds.query('UPDATE api_keys SET last_used_at = $2 WHERE id = $1', [key.id, now]);
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
