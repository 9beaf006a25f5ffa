import { Type } from '@sinclair/typebox';
import { Rpc } from '../rpc';
import {
  AccountOverviewSchema,
  ANALYTICS_GROUPS,
  AnalyticsQuerySchema,
  AnalyticsSchema,
  BillingSummarySchema,
} from '../rpc/summaries';
import type { RouteDef } from './define';

const NoArguments = Type.Object({}, { additionalProperties: false });

/** What the calling account is, what its plan allows and uses, and how its posts did. */
export const AccountRoutes = {
  getAccountSummary: {
    id: 'getAccountSummary',
    method: 'get',
    path: '/api/v1/account',
    scope: 'account:read',
    summary:
      'The account and user, the calling key (name, scopes, profile restriction), connected profiles per platform (and those needing a reconnect), and post counts by status.',
    rpc: Rpc.authAccountOverview,
    response: AccountOverviewSchema,
    status: 200,
    tool: {
      name: 'svc_get_account_summary',
      title: 'Account summary',
      description:
        'Summarise the account: its plan and user, this credential (name, scopes, which profiles it may use), connected profiles per platform with any that need a reconnect, and how many posts are in each status.',
      input: NoArguments,
      toRpc: () => ({}),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      oauthScope: 'mcp:read',
    },
  },
  getBillingSummary: {
    id: 'getBillingSummary',
    method: 'get',
    path: '/api/v1/billing',
    scope: 'account:read',
    summary:
      'Plan, trial dates and days left, tester flag, the scheduling and storage quotas with their use this period, and what happens when each runs out. Plans are changed by an operator; no payment is taken here.',
    rpc: Rpc.authBillingSummary,
    response: BillingSummarySchema,
    status: 200,
    tool: {
      name: 'svc_get_billing_summary',
      title: 'Plan and quota',
      description:
        'Read the plan and its limits: trial end and days left, tester flag, scheduled posts used of the monthly quota, media storage used of the storage quota, and what happens when each runs out.',
      input: NoArguments,
      toRpc: () => ({}),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      oauthScope: 'mcp:read',
    },
  },
  getAnalytics: {
    id: 'getAnalytics',
    method: 'get',
    path: '/api/v1/analytics',
    scope: 'post:read',
    summary:
      'For posts due in a time range: scheduled, posted, failed, success rate, median and p95 dispatch lag, top failure reasons and engagement (views, likes, comments, shares as the platforms report them), optionally per platform, profile, category or day.',
    rpc: Rpc.postsAnalytics,
    query: AnalyticsQuerySchema,
    response: AnalyticsSchema,
    status: 200,
    tool: {
      name: 'svc_get_analytics',
      title: 'Post analytics',
      description: `Report how posts did over a time range (on scheduledTime; default the last 30 days): counts scheduled, posted and failed, success rate, median and p95 dispatch lag, top failure reasons, and engagement read 1 h, 24 h and 7 days after publishing. groupBy (${ANALYTICS_GROUPS.join(', ')}) splits them.`,
      input: AnalyticsQuerySchema,
      toRpc: (args) => args,
      validateInput: false,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      oauthScope: 'mcp:read',
    },
  },
} satisfies Record<string, RouteDef>;
