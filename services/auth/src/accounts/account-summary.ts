import type { AccountSummary } from '@postbus/contracts';
import type { AuthConfig } from '../config';
import type { AccountRow } from './account.repository';
import { isEntitled, quotasFor } from './plans';

/** An account as other services and operators see it. */
export function toAccountSummary(a: AccountRow, config: AuthConfig, now = new Date()): AccountSummary {
  return {
    accountId: a.id,
    plan: a.plan,
    tester: a.tester,
    disabled: a.disabled,
    trialEndsAt: new Date(a.trial_ends_at).toISOString(),
    createdAt: new Date(a.created_at).toISOString(),
    entitled: isEntitled(a, now),
    quotas: quotasFor(a.plan, config),
  };
}
