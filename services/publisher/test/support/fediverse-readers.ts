import { createEngagementReaders, type InsightsEndpoints } from '../../src/insights/engagement-readers';

/** The engagement readers with only Bluesky's AppView and Mastodon's instances to reach; the other platforms unset. */
export function fediverseReaders(
  endpoints: Pick<InsightsEndpoints, 'blueskyAppViewUrl' | 'mastodonInstanceUrl' | 'timeoutMs'>,
): ReturnType<typeof createEngagementReaders> {
  return createEngagementReaders({
    threadsApiUrl: '',
    instagramApiUrl: '',
    facebookApiUrl: '',
    tiktokApiUrl: '',
    youtubeApiUrl: '',
    pinterestApiUrl: '',
    ...endpoints,
  });
}
