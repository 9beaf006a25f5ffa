import type { PlatformEngagement } from '../insights/engagement';
import { readInsightValues } from '../meta/insights';
import { callThreads, type ThreadsApiOptions } from './api';

/** `GET /{media-id}/insights?metric=views,likes,replies,shares`: a Threads post's lifetime figures (replies are its comments). */
export async function getThreadsEngagement(api: ThreadsApiOptions, mediaId: string): Promise<PlatformEngagement> {
  const values = readInsightValues(
    await callThreads(api, 'GET', [mediaId, 'insights'], { query: { metric: 'views,likes,replies,shares' } }),
  );
  return {
    views: values.get('views') ?? null,
    likes: values.get('likes') ?? null,
    comments: values.get('replies') ?? null,
    shares: values.get('shares') ?? null,
  };
}
