import type { DataSource } from 'typeorm';
import { Rpc } from '@postbus/contracts';
import type { RpcClient, RpcServer } from '@postbus/bus';
import { AnalyticsRepository } from '../analytics/analytics.repository';
import { getAnalytics, type AnalyticsPorts } from '../analytics/get-analytics.use-case';
import type { PostRepository } from '../posts/post.repository';
import type { PostsPorts } from '../posts/posts.ports';
import { suggestSlots } from '../schedules/suggest-slots.use-case';
import { getPostCounts, getQuotaUsage } from '../summaries/post-counts.query';

/** The figures posts owns: counts by status, quota use, analytics and slot suggestions (engagement asked of the publisher). */
export function registerSummariesRpc(
  rpc: RpcServer,
  deps: {
    ds: DataSource;
    posts: PostRepository;
    client: RpcClient;
    listProfiles: PostsPorts['listProfiles'];
    clock?: () => Date;
  },
): void {
  const clock = deps.clock ?? (() => new Date());
  const analytics: AnalyticsPorts = {
    analytics: new AnalyticsRepository(deps.ds),
    engagementOf: async (principal, postIds) =>
      (await deps.client.call(Rpc.publisherEngagement, { postIds }, principal)).posts,
    clock,
  };
  rpc.handle(Rpc.postsCountSummary, (_input, { principal }) => getPostCounts(deps.posts, principal));
  rpc.handle(Rpc.postsQuotaUsage, (_input, { principal }) =>
    getQuotaUsage(deps.ds, deps.posts, principal.accountId, clock()),
  );
  rpc.handle(Rpc.postsAnalytics, (query, { principal }) => getAnalytics(analytics, principal, query));
  rpc.handle(Rpc.schedulesSuggest, (input, { principal }) =>
    suggestSlots({ ...analytics, listProfiles: deps.listProfiles }, principal, input),
  );
}
