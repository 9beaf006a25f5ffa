import { countOf, type PlatformEngagement } from '../insights/engagement';
import { readInsightValues } from '../meta/insights';
import { callFacebook, type FacebookApiOptions } from './api';

const totalCount = (edge: unknown) =>
  countOf((edge as { summary?: { total_count?: unknown } } | undefined)?.summary?.total_count);

/**
 * A Page post (`{page-id}_{post-id}`): `GET /{id}?fields=reactions…,comments…,shares` and
 * `GET /{id}/insights?metric=post_impressions`. A video or reel (a bare id): likes and comments,
 * and `GET /{id}/video_insights?metric=total_video_views`; videos report no shares.
 */
export async function getFacebookEngagement(api: FacebookApiOptions, objectId: string): Promise<PlatformEngagement> {
  const isPost = objectId.includes('_');
  const fields = isPost
    ? 'reactions.limit(0).summary(total_count),comments.limit(0).summary(total_count),shares'
    : 'likes.limit(0).summary(total_count),comments.limit(0).summary(total_count)';
  const node = await callFacebook(api, 'GET', [objectId], { query: { fields } });
  const views = readInsightValues(
    await callFacebook(api, 'GET', [objectId, isPost ? 'insights' : 'video_insights'], {
      query: { metric: isPost ? 'post_impressions' : 'total_video_views' },
    }),
  );
  return {
    views: views.get(isPost ? 'post_impressions' : 'total_video_views') ?? null,
    likes: totalCount(isPost ? node.reactions : node.likes),
    comments: totalCount(node.comments),
    // Graph leaves `shares` out of a post nobody shared.
    shares: isPost ? (countOf((node.shares as { count?: unknown } | undefined)?.count) ?? 0) : null,
  };
}
