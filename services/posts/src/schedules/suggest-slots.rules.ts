import { DateTime, type IANAZone } from 'luxon';
import { WEEKDAYS, type PostEngagement, type SlotSuggestion } from '@postbus/contracts';

export interface PublishedPost {
  id: string;
  publishedAt: Date;
}

type SuggestedSlot = SlotSuggestion['slots'][number];

/**
 * What a post earned: likes + comments + shares where the platform reports any of them, else its
 * views; undefined when the platform has reported nothing for it yet.
 */
export function engagementScore(e: PostEngagement): number | undefined {
  const interactions = [e.likes, e.comments, e.shares].filter((n): n is number => n !== null);
  if (interactions.length) return interactions.reduce((a, b) => a + b, 0);
  return e.views ?? undefined;
}

/**
 * The `count` weekly hours (read in `zone`) whose published posts earned the most on average,
 * ordered by weekday and time. Ties go to the hour with more posts, then the earlier one.
 */
export function rankWeeklyHours(
  posts: PublishedPost[],
  engagement: Map<string, number>,
  zone: IANAZone,
  count: number,
): SuggestedSlot[] {
  const buckets = new Map<string, { day: number; hour: number; posts: number; total: number }>();
  for (const post of posts) {
    const score = engagement.get(post.id);
    if (score === undefined) continue;
    const local = DateTime.fromJSDate(post.publishedAt, { zone });
    const key = `${local.weekday}:${local.hour}`;
    const bucket = buckets.get(key) ?? { day: local.weekday - 1, hour: local.hour, posts: 0, total: 0 };
    bucket.posts++;
    bucket.total += score;
    buckets.set(key, bucket);
  }
  const ranked = [...buckets.values()].sort(
    (a, b) => b.total / b.posts - a.total / a.posts || b.posts - a.posts || a.day - b.day || a.hour - b.hour,
  );
  return ranked
    .slice(0, count)
    .sort((a, b) => a.day - b.day || a.hour - b.hour)
    .map((b) => ({
      day: WEEKDAYS[b.day],
      time: `${String(b.hour).padStart(2, '0')}:00`,
      posts: b.posts,
      averageEngagement: Math.round((b.total / b.posts) * 100) / 100,
    }));
}
