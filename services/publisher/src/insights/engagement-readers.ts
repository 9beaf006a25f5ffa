import type { Credentials, Platform } from '@postbus/contracts';
import {
  getFacebookEngagement,
  getInstagramEngagement,
  getThreadsEngagement,
  getTikTokEngagement,
  getYouTubeEngagement,
  type PlatformEngagement,
} from '@postbus/platforms';

/** Reads one published item's figures from its platform's insights endpoint. */
export type EngagementReader = (creds: Credentials, platformPostId: string) => Promise<PlatformEngagement>;

export interface InsightsEndpoints {
  threadsApiUrl: string;
  instagramApiUrl: string;
  facebookApiUrl: string;
  tiktokApiUrl: string;
  youtubeApiUrl: string;
  timeoutMs: number;
}

/**
 * One reader per platform, over the platform clients of libs/platforms. Bluesky has none yet: its
 * counts come from the AppView (app.bsky.feed.getPosts), not from the account's PDS. Mastodon has
 * none yet either: a status's counts are read on the account's own instance (GET /api/v1/statuses/:id).
 */
export function createEngagementReaders(
  e: InsightsEndpoints,
): Record<Exclude<Platform, 'bluesky' | 'mastodon'>, EngagementReader> {
  const timeoutMs = e.timeoutMs;
  return {
    threads: (c, id) => getThreadsEngagement({ baseUrl: e.threadsApiUrl, accessToken: c.accessToken, timeoutMs }, id),
    instagram: (c, id) =>
      getInstagramEngagement({ baseUrl: e.instagramApiUrl, accessToken: c.accessToken, timeoutMs }, id),
    facebook: (c, id) =>
      getFacebookEngagement({ baseUrl: e.facebookApiUrl, accessToken: c.accessToken, timeoutMs }, id),
    tiktok: (c, id) => getTikTokEngagement({ baseUrl: e.tiktokApiUrl, accessToken: c.accessToken, timeoutMs }, id),
    youtube: (c, id) => getYouTubeEngagement({ apiUrl: e.youtubeApiUrl, accessToken: c.accessToken, timeoutMs }, id),
  };
}
