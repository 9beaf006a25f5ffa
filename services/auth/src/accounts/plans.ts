import { ACCOUNT_PLANS, AppError } from '@postbus/contracts';

/** What each plan allows; the figures come from config so operators can tune them. */
export interface PlanQuotas {
  scheduledPostsPerMonth: number;
  storageBytes: number;
}

export const PAID_PLANS = new Set(['pro', 'business', 'enterprise']);

export function assertKnownPlan(plan: string): void {
  if (!(ACCOUNT_PLANS as readonly string[]).includes(plan))
    throw new AppError('validation_error', `Unknown plan '${plan}'; use one of ${ACCOUNT_PLANS.join(', ')}.`);
}

export function quotasFor(
  plan: string,
  config: {
    QUOTA_TRIAL_POSTS: number;
    QUOTA_TRIAL_STORAGE_MB: number;
    QUOTA_PRO_POSTS: number;
    QUOTA_PRO_STORAGE_MB: number;
  },
): PlanQuotas {
  if (PAID_PLANS.has(plan))
    return { scheduledPostsPerMonth: config.QUOTA_PRO_POSTS, storageBytes: config.QUOTA_PRO_STORAGE_MB * 1024 * 1024 };
  if (plan === 'trial')
    return {
      scheduledPostsPerMonth: config.QUOTA_TRIAL_POSTS,
      storageBytes: config.QUOTA_TRIAL_STORAGE_MB * 1024 * 1024,
    };
  return { scheduledPostsPerMonth: 0, storageBytes: 0 };
}

/** Tester accounts (beta), paid plans, and trials not yet over may use the API. */
export function isEntitled(a: { plan: string; tester: boolean; trial_ends_at: Date }, now = new Date()): boolean {
  if (a.tester || PAID_PLANS.has(a.plan)) return true;
  return a.plan === 'trial' && new Date(a.trial_ends_at) > now;
}
