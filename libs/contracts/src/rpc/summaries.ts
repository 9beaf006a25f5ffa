import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { PLATFORMS } from '../platforms';
import { POST_STATUSES } from '../post';
import { defineRpc } from './define';

/**
 * Account, billing and analytics summaries. Each figure is computed by the service that owns its
 * data; auth and posts gather them over RPC into the answers of the three REST routes and tools.
 */

const Count = Type.Integer({ minimum: 0 });
const Iso = Type.String({ format: 'date-time' });
const NullableIso = Type.Union([Iso, Type.Null()]);
const NullableCount = Type.Union([Count, Type.Null()]);

/** An object with one required property per key, all of the same schema. */
function keyed<K extends string, T extends TSchema>(keys: readonly K[], value: T) {
  return Type.Object(Object.fromEntries(keys.map((k) => [k, value])) as Record<K, T>);
}

// ---- connections: profiles per platform -------------------------------------------------------

export const ProfileSummarySchema = Type.Object({
  total: Type.Integer({
    minimum: 0,
    description: 'Connected profiles this key may use (active or needing a reconnect).',
  }),
  byPlatform: keyed(PLATFORMS, Type.Object({ active: Count, needsReconnect: Count })),
  needsReconnect: Type.Array(
    Type.Object({
      id: Type.String(),
      platform: Type.String(),
      handle: Type.String(),
      statusReason: Type.Union([Type.String(), Type.Null()]),
    }),
    { description: 'Profiles whose grant the platform refused: send the owner a new connection link.' },
  ),
});
export type ProfileSummary = Static<typeof ProfileSummarySchema>;

// ---- posts: counts and quota use --------------------------------------------------------------

export const PostCountsSchema = Type.Object({
  total: Count,
  byStatus: keyed(POST_STATUSES, Count),
});
export type PostCounts = Static<typeof PostCountsSchema>;

export const QuotaUsageSchema = Type.Object({
  used: Type.Integer({
    minimum: 0,
    description: 'Posts (drafts included) created in the period; each counts against scheduledPostsPerMonth.',
  }),
  periodStart: Iso,
  periodEnd: Iso,
});
export type QuotaUsage = Static<typeof QuotaUsageSchema>;

// ---- media: storage in use --------------------------------------------------------------------

export const StorageUsageSchema = Type.Object({ usedBytes: Count, mediaCount: Count });
export type StorageUsage = Static<typeof StorageUsageSchema>;

// ---- publisher: engagement figures ------------------------------------------------------------

export const ENGAGEMENT_QUERY_MAX = 1000;

export const PostEngagementSchema = Type.Object({
  postId: Type.String(),
  platform: Type.String(),
  views: NullableCount,
  likes: NullableCount,
  comments: NullableCount,
  shares: NullableCount,
  collectedAt: Iso,
  /** Which collection after publishing answered these figures: 0 = the first offset (about 1 h), 1 = the second (24 h), … */
  stage: Count,
});
export type PostEngagement = Static<typeof PostEngagementSchema>;

// ---- GET /api/v1/account ----------------------------------------------------------------------

export const AccountOverviewSchema = Type.Object({
  account: Type.Object({
    id: Type.String(),
    name: Type.String(),
    plan: Type.String(),
    tester: Type.Boolean(),
    createdAt: Iso,
  }),
  user: Type.Object({ id: Type.String(), email: Type.String(), createdAt: Iso }),
  credential: Type.Object(
    {
      type: Type.Union([Type.Literal('api_key'), Type.Literal('oauth'), Type.Literal('system')]),
      id: Type.String(),
      name: Type.Union([Type.String(), Type.Null()], { description: "The API key's name, or the OAuth client's." }),
      scopes: Type.Array(Type.String()),
      profileIds: Type.Union([Type.Literal('all'), Type.Array(Type.String())], {
        description: "'all', or the profile ids the key may use.",
      }),
      expiresAt: NullableIso,
    },
    { description: 'The key (or OAuth grant) making this call.' },
  ),
  profiles: ProfileSummarySchema,
  posts: PostCountsSchema,
});
export type AccountOverview = Static<typeof AccountOverviewSchema>;

// ---- GET /api/v1/billing ----------------------------------------------------------------------

export const BillingSummarySchema = Type.Object({
  plan: Type.String({ description: 'trial, pro, business, enterprise or expired.' }),
  entitled: Type.Boolean({
    description: 'Whether the account may use the API now (tester, paid plan, or trial not over).',
  }),
  tester: Type.Boolean({ description: 'Tester accounts (the beta) may use the API whatever their plan.' }),
  trial: Type.Object({
    startedAt: Iso,
    endsAt: Iso,
    daysLeft: Type.Integer({ minimum: 0, description: 'Whole days until endsAt, rounded up; 0 once over.' }),
    onTrial: Type.Boolean({ description: 'True while the plan is trial.' }),
    whenOver: Type.String(),
  }),
  scheduling: Type.Object({
    quota: Type.Integer({
      minimum: 0,
      description: 'Posts (one per profile, drafts included) the plan allows per calendar month (UTC).',
    }),
    used: Count,
    remaining: Count,
    periodStart: Iso,
    periodEnd: Iso,
    whenExhausted: Type.String(),
  }),
  storage: Type.Object({
    quotaBytes: Count,
    usedBytes: Count,
    remainingBytes: Count,
    mediaCount: Count,
    whenExhausted: Type.String(),
  }),
  planChanges: Type.String(),
});
export type BillingSummary = Static<typeof BillingSummarySchema>;

// ---- GET /api/v1/analytics --------------------------------------------------------------------

export const ANALYTICS_GROUPS = ['platform', 'profile', 'category', 'day'] as const;
export type AnalyticsGroup = (typeof ANALYTICS_GROUPS)[number];
export const ANALYTICS_MAX_DAYS = 366;
export const ANALYTICS_DEFAULT_DAYS = 30;
export const FAILURE_REASONS_MAX = 5;

/** Tool arguments and REST query of GET /api/v1/analytics, as documented. */
export const AnalyticsQuerySchema = Type.Object(
  {
    from: Type.Optional(
      Type.String({
        description: `Start of the range, inclusive, on scheduledTime (ISO 8601 with Z or an offset); default ${ANALYTICS_DEFAULT_DAYS} days before to.`,
      }),
    ),
    to: Type.Optional(
      Type.String({ description: 'End of the range, exclusive (ISO 8601 with Z or an offset); default now.' }),
    ),
    groupBy: Type.Optional(
      Type.Union(
        ANALYTICS_GROUPS.map((g) => Type.Literal(g)),
        { description: `Also answer the figures per ${ANALYTICS_GROUPS.join(', ')} (day: UTC date of scheduledTime).` },
      ),
    ),
  },
  { additionalProperties: false },
);
/** The RPC takes the values as sent, so that posts answers each bad one with a message naming it. */
const AnalyticsInputSchema = Type.Object(
  { from: Type.Optional(Type.String()), to: Type.Optional(Type.String()), groupBy: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
export type AnalyticsQuery = Static<typeof AnalyticsInputSchema>;

export const EngagementTotalsSchema = Type.Object({
  posts: Type.Integer({ minimum: 0, description: 'Published posts with figures collected so far.' }),
  views: NullableCount,
  likes: NullableCount,
  comments: NullableCount,
  shares: NullableCount,
  lastCollectedAt: NullableIso,
});
export type EngagementTotals = Static<typeof EngagementTotalsSchema>;

const AnalyticsFiguresProperties = {
  scheduled: Type.Integer({
    minimum: 0,
    description: 'Posts due in the range that entered the pipeline: still scheduled, posted or failed.',
  }),
  posted: Count,
  failed: Count,
  pending: Type.Integer({ minimum: 0, description: 'Still scheduled: waiting or being published.' }),
  cancelled: Count,
  successRate: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
    description: 'posted / (posted + failed); null before any outcome.',
  }),
  dispatchLag: Type.Object(
    {
      dispatched: Type.Integer({ minimum: 0, description: 'Posts the scheduler has sent to a publisher.' }),
      medianMs: Type.Union([Type.Integer(), Type.Null()]),
      p95Ms: Type.Union([Type.Integer(), Type.Null()]),
    },
    { description: 'Dispatch time minus scheduledTime.' },
  ),
  topFailureReasons: Type.Array(Type.Object({ reason: Type.String(), count: Count }), {
    maxItems: FAILURE_REASONS_MAX,
  }),
  engagement: EngagementTotalsSchema,
};
export const AnalyticsFiguresSchema = Type.Object(AnalyticsFiguresProperties);
export type AnalyticsFigures = Static<typeof AnalyticsFiguresSchema>;

export const AnalyticsSchema = Type.Object({
  from: Iso,
  to: Iso,
  groupBy: Type.Union([...ANALYTICS_GROUPS.map((g) => Type.Literal(g)), Type.Null()]),
  totals: AnalyticsFiguresSchema,
  groups: Type.Array(
    Type.Object({
      key: Type.Union([Type.String(), Type.Null()], {
        description: 'The platform, profile id, category (null: none) or day (YYYY-MM-DD).',
      }),
      ...AnalyticsFiguresProperties,
    }),
  ),
});
export type Analytics = Static<typeof AnalyticsSchema>;

export const SummariesRpc = {
  /** GET /api/v1/account: auth gathers the account, the calling key, profiles (connections) and post counts (posts). */
  authAccountOverview: defineRpc('auth.summaries.account', Type.Object({}), AccountOverviewSchema),
  /** GET /api/v1/billing: auth gathers plan and quotas with their use (posts, media). */
  authBillingSummary: defineRpc('auth.summaries.billing', Type.Object({}), BillingSummarySchema),
  /** Profiles the key may use, per platform, and those needing a reconnect. */
  connectionsProfileSummary: defineRpc('connections.summaries.profiles', Type.Object({}), ProfileSummarySchema),
  /** The account's posts by status. */
  postsCountSummary: defineRpc('posts.summaries.counts', Type.Object({}), PostCountsSchema),
  /** Posts counted against the scheduling quota in the current calendar month (UTC). */
  postsQuotaUsage: defineRpc('posts.summaries.quota', Type.Object({}), QuotaUsageSchema),
  /** GET /api/v1/analytics: posts computes its figures and asks the publisher for engagement. */
  postsAnalytics: defineRpc('posts.summaries.analytics', AnalyticsInputSchema, AnalyticsSchema),
  /** Bytes of the account's stored media. */
  mediaStorageUsage: defineRpc('media.summaries.storage', Type.Object({}), StorageUsageSchema),
  /** The latest engagement figures collected for these posts of the principal's account (posts without any are left out). */
  publisherEngagement: defineRpc(
    'publisher.insights.engagement',
    Type.Object(
      { postIds: Type.Array(Type.String(), { maxItems: ENGAGEMENT_QUERY_MAX }) },
      { additionalProperties: false },
    ),
    Type.Object({ posts: Type.Array(PostEngagementSchema) }),
  ),
};
