import { AppError } from '@postbus/contracts';
import type { AccountRepository } from './account.repository';
import { isEntitled } from './plans';

/** Refuses, with the spec's codes, a user or account that may not use the API now (disabled, or the trial over without a plan). */
export async function assertMayUseApi(
  accounts: Pick<AccountRepository, 'findApiAccess'>,
  userId: string,
  accountId: string,
  now = new Date(),
): Promise<void> {
  const r = await accounts.findApiAccess(userId, accountId);
  if (!r || r.account_disabled) throw new AppError('api_access_disabled', 'API access is disabled for this account.');
  if (r.user_disabled) throw new AppError('api_access_disabled', 'This user is disabled.');
  if (!isEntitled(r, now))
    throw new AppError('plan_required', 'The free trial has ended; choose a plan to keep using the API.');
}
