import type { BillingSummary, QuotaUsage, StorageUsage } from '@postbus/contracts';
import type { AccountRow } from '../accounts/account.repository';
import { isEntitled, PAID_PLANS, type PlanQuotas } from '../accounts/plans';

const DAY_MS = 86_400_000;

export const PLAN_CHANGES =
  'Plans are changed by the Postbus operator (pnpm postbus set-plan); no payment is taken through the API.';

/** Whole days until `endsAt`, rounded up; 0 once it has passed. */
export function daysLeft(endsAt: Date, now: Date): number {
  return Math.max(0, Math.ceil((endsAt.getTime() - now.getTime()) / DAY_MS));
}

/** 1073741824 → "1 GB"; 52428800 → "50 MB". */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/** What happens when the trial is over, for this account as it stands. */
export function whenTrialOver(a: Pick<AccountRow, 'plan' | 'tester' | 'trial_ends_at'>, now: Date): string {
  const endsAt = new Date(a.trial_ends_at);
  const refused = 'API and agent calls answer 403 plan_required until the operator sets a paid plan';
  if (a.plan === 'expired')
    return `The plan has expired: uploads and link imports answer 403 upload_plan_required${a.tester ? '; as a tester account it keeps API access otherwise' : `, and ${refused}`}.`;
  if (PAID_PLANS.has(a.plan)) return `The account is on the ${a.plan} plan; the trial no longer limits it.`;
  if (a.tester)
    return `Tester accounts keep API access after the trial (it ${endsAt > now ? 'ends' : 'ended'} on ${day(endsAt)}).`;
  return endsAt > now
    ? `When the trial ends on ${day(endsAt)}, ${refused}.`
    : `The trial ended on ${day(endsAt)}: ${refused}.`;
}

/** The billing summary: the plan's limits beside their use, and what happens when each runs out. */
export function billingSummary(
  a: AccountRow,
  quotas: PlanQuotas,
  posts: QuotaUsage,
  storage: StorageUsage,
  now: Date,
): BillingSummary {
  const endsAt = new Date(a.trial_ends_at);
  const storageLeft = Math.max(0, quotas.storageBytes - storage.usedBytes);
  return {
    plan: a.plan,
    entitled: isEntitled(a, now),
    tester: a.tester,
    trial: {
      startedAt: new Date(a.created_at).toISOString(),
      endsAt: endsAt.toISOString(),
      daysLeft: daysLeft(endsAt, now),
      onTrial: a.plan === 'trial',
      whenOver: whenTrialOver(a, now),
    },
    scheduling: {
      quota: quotas.scheduledPostsPerMonth,
      used: posts.used,
      remaining: Math.max(0, quotas.scheduledPostsPerMonth - posts.used),
      periodStart: posts.periodStart,
      periodEnd: posts.periodEnd,
      whenExhausted:
        `A request that would create more than the ${quotas.scheduledPostsPerMonth} posts (one per profile, drafts included) allowed this month answers 403 quota_exceeded and stores nothing; ` +
        `posts already scheduled still publish. The count starts again on ${day(new Date(posts.periodEnd))} (UTC).`,
    },
    storage: {
      quotaBytes: quotas.storageBytes,
      usedBytes: storage.usedBytes,
      remainingBytes: storageLeft,
      mediaCount: storage.mediaCount,
      whenExhausted:
        `An upload or link import that does not fit in the ${formatBytes(storageLeft)} left of ${formatBytes(quotas.storageBytes)} answers 403 storage_quota_exceeded and stores nothing; ` +
        'media already stored keeps working. Deleting media (DELETE /api/v1/media/{mediaId}) frees its space.',
    },
    planChanges: PLAN_CHANGES,
  };
}
