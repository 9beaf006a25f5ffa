import {
  ENGAGEMENT_QUERY_MAX,
  FAILURE_REASONS_MAX,
  profileLimitOf,
  type Analytics,
  type AnalyticsFigures,
  type AnalyticsQuery,
  type PostEngagement,
  type Principal,
} from '@postbus/contracts';
import { parseAnalyticsQuery } from './analytics-query.rules';
import type { AnalyticsRepository, FailureReasonCount, Range, StatusFigures } from './analytics.repository';
import { sumEngagement } from './engagement-totals';

export interface AnalyticsPorts {
  analytics: AnalyticsRepository;
  /** The latest engagement figures of these posts, asked of the publisher (which collects them). */
  engagementOf(principal: Principal, postIds: string[]): Promise<PostEngagement[]>;
  clock(): Date;
}

/** How the account's posts (on the profiles the caller may use) due in a range did: outcomes, dispatch lag, failure reasons and engagement, in total and per group. */
export async function getAnalytics(ports: AnalyticsPorts, principal: Principal, q: AnalyticsQuery): Promise<Analytics> {
  const { from, to, groupBy } = parseAnalyticsQuery(q, ports.clock());
  const range: Range = {
    accountId: principal.accountId,
    profileIds: profileLimitOf(principal),
    from,
    to,
    group: groupBy ?? 'none',
  };
  const totalRange: Range = { ...range, group: 'none' };
  const [totalStatus, totalReasons, groupStatus, groupReasons, posted] = await Promise.all([
    ports.analytics.statusFigures(totalRange),
    ports.analytics.failureReasons(totalRange),
    groupBy ? ports.analytics.statusFigures(range) : Promise.resolve([]),
    groupBy ? ports.analytics.failureReasons(range) : Promise.resolve([]),
    ports.analytics.postedPosts(range),
  ]);
  const engagement = new Map(
    (
      await collectEngagement(
        ports,
        principal,
        posted.map((p) => p.id),
      )
    ).map((e) => [e.postId, e]),
  );
  const engagementOfKey = (key: string | null | undefined) =>
    sumEngagement(posted.filter((p) => key === undefined || p.key === key).flatMap((p) => engagement.get(p.id) ?? []));

  return {
    from: from.toISOString(),
    to: to.toISOString(),
    groupBy,
    totals: figures(totalStatus[0], totalReasons, engagementOfKey(undefined)),
    groups: groupStatus.map((s) => ({
      key: s.key,
      ...figures(
        s,
        groupReasons.filter((r) => r.key === s.key),
        engagementOfKey(s.key),
      ),
    })),
  };
}

async function collectEngagement(
  ports: AnalyticsPorts,
  principal: Principal,
  postIds: string[],
): Promise<PostEngagement[]> {
  const found: PostEngagement[] = [];
  for (let i = 0; i < postIds.length; i += ENGAGEMENT_QUERY_MAX)
    found.push(...(await ports.engagementOf(principal, postIds.slice(i, i + ENGAGEMENT_QUERY_MAX))));
  return found;
}

const NONE: StatusFigures = {
  key: null,
  scheduled: 0,
  posted: 0,
  failed: 0,
  pending: 0,
  cancelled: 0,
  dispatched: 0,
  medianLagMs: null,
  p95LagMs: null,
};

function figures(
  s: StatusFigures | undefined,
  reasons: FailureReasonCount[],
  engagement: AnalyticsFigures['engagement'],
): AnalyticsFigures {
  const { scheduled, posted, failed, pending, cancelled, dispatched, medianLagMs, p95LagMs } = s ?? NONE;
  const finished = posted + failed;
  return {
    scheduled,
    posted,
    failed,
    pending,
    cancelled,
    successRate: finished ? Math.round((posted / finished) * 10_000) / 10_000 : null,
    dispatchLag: { dispatched, medianMs: medianLagMs, p95Ms: p95LagMs },
    topFailureReasons: reasons.slice(0, FAILURE_REASONS_MAX).map(({ reason, count }) => ({ reason, count })),
    engagement,
  };
}
