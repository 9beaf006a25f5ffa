import type { PlatformEngagement } from '../insights/engagement';
import { readInsightValues } from '../meta/insights';
import { callInstagram, type InstagramApiOptions } from './api';

/** `GET /{ig-media-id}/insights?metric=views,likes,comments,shares`: an Instagram media's lifetime figures. */
export async function getInstagramEngagement(api: InstagramApiOptions, mediaId: string): Promise<PlatformEngagement> {
  const values = readInsightValues(
    await callInstagram(api, 'GET', [mediaId, 'insights'], { query: { metric: 'views,likes,comments,shares' } }),
  );
  return {
    views: values.get('views') ?? null,
    likes: values.get('likes') ?? null,
    comments: values.get('comments') ?? null,
    shares: values.get('shares') ?? null,
  };
}
