import { findPublished, reportedFigures } from '../insights/figures';
import type { SandboxState } from '../state';

/**
 * The counts a Status carries (https://docs.joinmastodon.org/entities/Status/): the figures the
 * control API keeps (`/__sandbox/insights`), favourites from likes, replies from comments, boosts
 * from shares, no quotes.
 */
export function statusCounts(state: SandboxState, statusId: string) {
  const item = findPublished(state, 'mastodon', statusId);
  const f = item ? reportedFigures(item) : undefined;
  return {
    replies_count: f?.comments ?? 0,
    reblogs_count: f?.shares ?? 0,
    favourites_count: f?.likes ?? 0,
    quotes_count: 0,
  };
}
