import {
  AppError,
  DEFAULT_SUGGESTED_SLOTS,
  ENGAGEMENT_QUERY_MAX,
  PLATFORMS,
  SUGGEST_COUNT_DEFAULT,
  SUGGEST_COUNT_MAX,
  SUGGEST_HISTORY_DAYS,
  SUGGEST_MIN_POSTS,
  type PostEngagement,
  type Principal,
  type SlotSuggestion,
} from '@postbus/contracts';
import type { AnalyticsRepository } from '../analytics/analytics.repository';
import { zoneOf } from '../posts/local-time';
import type { PostsPorts } from '../posts/posts.ports';
import { resolveProfiles } from '../posts/resolve-profiles';
import { engagementScore, rankWeeklyHours } from './suggest-slots.rules';

export interface SuggestPorts extends Pick<PostsPorts, 'listProfiles' | 'clock'> {
  analytics: AnalyticsRepository;
  /** The latest engagement figures of these posts, asked of the publisher (which collects them). */
  engagementOf(principal: Principal, postIds: string[]): Promise<PostEngagement[]>;
}

const DAY = 86_400_000;
/** The newest published posts read for a suggestion: enough for a weekly pattern, bounded in cost. */
const HISTORY_POSTS_MAX = 5 * ENGAGEMENT_QUERY_MAX;

export interface SuggestInput {
  profileId?: unknown;
  timezone?: unknown;
  count?: unknown;
}

/** Weekly slots for a profile from its own published posts' engagement, or per-platform defaults with the reason. */
export async function suggestSlots(
  ports: SuggestPorts,
  principal: Principal,
  input: SuggestInput,
): Promise<SlotSuggestion> {
  const { profileId } = input;
  if (typeof profileId !== 'string' || !profileId)
    throw new AppError('validation_error', 'profileId is required: the profile to suggest slots for.', {
      field: 'profileId',
    });
  const timezone = input.timezone ?? 'UTC';
  const zone = zoneOf(timezone);
  if (!zone)
    throw new AppError('validation_error', 'timezone must be an IANA time zone name such as Europe/Berlin.', {
      field: 'timezone',
    });
  const count = countOf(input.count);
  const [profile] = await resolveProfiles(ports, principal, [...PLATFORMS], [profileId]);

  const since = new Date(ports.clock().getTime() - SUGGEST_HISTORY_DAYS * DAY);
  const posts = await ports.analytics.publishedOfProfile(principal.accountId, profile.id, since, HISTORY_POSTS_MAX);
  const scores = new Map<string, number>();
  for (let i = 0; i < posts.length; i += ENGAGEMENT_QUERY_MAX) {
    for (const e of await ports.engagementOf(
      principal,
      posts.slice(i, i + ENGAGEMENT_QUERY_MAX).map((p) => p.id),
    )) {
      const score = engagementScore(e);
      if (score !== undefined) scores.set(e.postId, score);
    }
  }
  const base = {
    profileId: profile.id,
    platform: profile.platform,
    timezone: zone.name,
    postsAnalyzed: scores.size,
    minimumPosts: SUGGEST_MIN_POSTS,
  };
  if (scores.size >= SUGGEST_MIN_POSTS)
    return { ...base, basis: 'history', reason: null, slots: rankWeeklyHours(posts, scores, zone, count) };
  return {
    ...base,
    basis: 'defaults',
    reason: `Only ${scores.size} published post${scores.size === 1 ? '' : 's'} with engagement figures in the last ${SUGGEST_HISTORY_DAYS} days; ${SUGGEST_MIN_POSTS} are needed to rank this profile's own hours.`,
    slots: (DEFAULT_SUGGESTED_SLOTS[profile.platform] ?? [])
      .slice(0, count)
      .map((s) => ({ ...s, posts: null, averageEngagement: null })),
  };
}

function countOf(raw: unknown): number {
  if (raw === undefined) return SUGGEST_COUNT_DEFAULT;
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > SUGGEST_COUNT_MAX) {
    throw new AppError('validation_error', `count must be an integer from 1 to ${SUGGEST_COUNT_MAX}.`, {
      field: 'count',
    });
  }
  return n;
}
