import type { Credentials, Platform } from '@postbus/contracts';
import {
  getFacebookEngagement,
  getInstagramEngagement,
  getThreadsEngagement,
  getTikTokEngagement,
  getYouTubeEngagement,
  getPinterestEngagement,
  getBlueskyEngagement,
  getMastodonEngagement,
  parseMastodonUserId,
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
  pinterestApiUrl: string;
  /** The AppView Bluesky counts are read from. */
  blueskyAppViewUrl: string;
  /** The Mastodon instance URL template, `{instance}` standing for the profile's instance. */
  mastodonInstanceUrl: string;
  timeoutMs: number;
}

/**
 * One reader per platform, over the platform clients of libs/platforms. Bluesky's counts come from
 * the AppView (app.bsky.feed.getPosts, public), not from the account's PDS; Mastodon's from the
 * account's own instance (GET /api/v1/statuses/:id, with the profile's token). X has none: every
 * read of a post's public_metrics is billed to the connecting app's pay-per-use credits.
 * LinkedIn has none: its post statistics (organizationalEntityShareStatistics, memberCreatorPostAnalytics) need
 * scopes granted only to Community Management partners.
 */
export function createEngagementReaders(
  e: InsightsEndpoints,
): Record<Exclude<Platform, 'linkedin' | 'x'>, EngagementReader> {
  const timeoutMs = e.timeoutMs;
  return {
    threads: (c, id) => getThreadsEngagement({ baseUrl: e.threadsApiUrl, accessToken: c.accessToken, timeoutMs }, id),
    instagram: (c, id) =>
      getInstagramEngagement({ baseUrl: e.instagramApiUrl, accessToken: c.accessToken, timeoutMs }, id),
    facebook: (c, id) =>
      getFacebookEngagement({ baseUrl: e.facebookApiUrl, accessToken: c.accessToken, timeoutMs }, id),
    tiktok: (c, id) => getTikTokEngagement({ baseUrl: e.tiktokApiUrl, accessToken: c.accessToken, timeoutMs }, id),
    youtube: (c, id) => getYouTubeEngagement({ apiUrl: e.youtubeApiUrl, accessToken: c.accessToken, timeoutMs }, id),
    // https://developers.pinterest.com/docs/api/v5/pins-analytics
    pinterest: (c, id) =>
      getPinterestEngagement({ baseUrl: e.pinterestApiUrl, accessToken: c.accessToken, timeoutMs }, id),
    // https://docs.bsky.app/docs/api/app-bsky-feed-get-posts
    bluesky: (_c, uri) => getBlueskyEngagement({ appViewUrl: e.blueskyAppViewUrl, timeoutMs }, uri),
    // https://docs.joinmastodon.org/methods/statuses/#get
    mastodon: (c, id) =>
      getMastodonEngagement(
        {
          instances: { baseUrlTemplate: e.mastodonInstanceUrl },
          instance: parseMastodonUserId(c.platformUserId).instance,
          accessToken: c.accessToken,
          timeoutMs,
        },
        id,
      ),
  };
}
