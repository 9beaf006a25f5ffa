import type { DataSource } from 'typeorm';
import { AppError } from '@postbus/contracts';
import { isEntitled } from './plans';

/** Refuses, with the spec's codes, a user or account that may not use the API now (disabled, or the trial over without a plan). */
export async function assertMayUseApi(ds: DataSource, userId: string, accountId: string, now = new Date()): Promise<void> {
  const rows: { user_disabled: boolean; account_disabled: boolean; plan: string; tester: boolean; trial_ends_at: Date }[] = await ds.query(
    `SELECT u.disabled AS user_disabled, a.disabled AS account_disabled, a.plan, a.tester, a.trial_ends_at
       FROM users u JOIN accounts a ON a.id = u.account_id
      WHERE u.id = $1 AND a.id = $2`,
    [userId, accountId],
  );
  const r = rows[0];
  if (!r || r.account_disabled) throw new AppError('api_access_disabled', 'API access is disabled for this account.');
  if (r.user_disabled) throw new AppError('api_access_disabled', 'This user is disabled.');
  if (!isEntitled(r, now)) throw new AppError('plan_required', 'The free trial has ended; choose a plan to keep using the API.');
}
