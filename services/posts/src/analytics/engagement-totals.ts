import type { EngagementTotals, PostEngagement } from '@postbus/contracts';

const METRICS = ['views', 'likes', 'comments', 'shares'] as const;

/** Sums the latest figures of each post; a metric no post reports stays null. */
export function sumEngagement(figures: PostEngagement[]): EngagementTotals {
  const totals: EngagementTotals = {
    posts: figures.length,
    views: null,
    likes: null,
    comments: null,
    shares: null,
    lastCollectedAt: null,
  };
  for (const f of figures) {
    for (const m of METRICS) if (f[m] !== null) totals[m] = (totals[m] ?? 0) + f[m];
    if (!totals.lastCollectedAt || f.collectedAt > totals.lastCollectedAt) totals.lastCollectedAt = f.collectedAt;
  }
  return totals;
}
