import type { Platform } from '@postbus/contracts';
import {
  blueskySessionClient,
  mastodonConnectClient,
  facebookOAuth,
  getInstagramPublishingQuota,
  getThreadsPublishingQuota,
  getXMe,
  instagramOAuth,
  linkedInOAuth,
  pinterestOAuth,
  threadsOAuth,
  tiktokOAuth,
  versionedBase,
  xOAuth,
  youtubeOAuth,
  type BlueskySessionClient,
  type MastodonConnectClient,
  type PlatformOAuthClient,
} from '@postbus/platforms';
import type { QuotaReader } from '../health/publishing-quota';
import type { ConnectionsConfig } from '../config';

/**
 * The platforms connected through OAuth consent with one app; Bluesky is connected with an app
 * password instead, Mastodon through an app registered on each instance (see mastodon-connect).
 */
export type OAuthPlatform = Exclude<Platform, 'bluesky' | 'mastodon'>;
export type PlatformClients = Record<OAuthPlatform, PlatformOAuthClient> & {
  bluesky: BlueskySessionClient;
  mastodon: MastodonConnectClient;
};

/** The platform's OAuth client, or undefined for a platform connected otherwise. */
export function oauthClientOf(clients: PlatformClients, platform: Platform): PlatformOAuthClient | undefined {
  return platform === 'bluesky' || platform === 'mastodon' ? undefined : clients[platform];
}

/** One OAuth client per platform, pointed at the configured hosts (the sandbox unless real ones are set). */
export function createPlatformClients(config: ConnectionsConfig, fetchImpl?: typeof fetch): PlatformClients {
  const common = { timeoutMs: config.PLATFORM_HTTP_TIMEOUT_MS, fetchImpl };
  return {
    instagram: instagramOAuth({
      ...common,
      clientId: config.INSTAGRAM_CLIENT_ID,
      clientSecret: config.INSTAGRAM_CLIENT_SECRET,
      authorizeUrl: config.INSTAGRAM_AUTHORIZE_URL,
      tokenUrl: config.INSTAGRAM_TOKEN_URL,
      graphUrl: config.INSTAGRAM_GRAPH_URL,
    }),
    facebook: facebookOAuth({
      ...common,
      clientId: config.FACEBOOK_CLIENT_ID,
      clientSecret: config.FACEBOOK_CLIENT_SECRET,
      authorizeUrl: config.FACEBOOK_AUTHORIZE_URL,
      graphUrl: config.FACEBOOK_GRAPH_URL,
    }),
    threads: threadsOAuth({
      ...common,
      clientId: config.THREADS_CLIENT_ID,
      clientSecret: config.THREADS_CLIENT_SECRET,
      authorizeUrl: config.THREADS_AUTHORIZE_URL,
      graphUrl: config.THREADS_GRAPH_URL,
      apiUrl: config.THREADS_API_URL,
    }),
    tiktok: tiktokOAuth({
      ...common,
      clientId: config.TIKTOK_CLIENT_KEY,
      clientSecret: config.TIKTOK_CLIENT_SECRET,
      authorizeUrl: config.TIKTOK_AUTHORIZE_URL,
      apiUrl: config.TIKTOK_API_URL,
    }),
    youtube: youtubeOAuth({
      ...common,
      clientId: config.YOUTUBE_CLIENT_ID,
      clientSecret: config.YOUTUBE_CLIENT_SECRET,
      authorizeUrl: config.YOUTUBE_AUTHORIZE_URL,
      tokenUrl: config.YOUTUBE_TOKEN_URL,
      apiUrl: config.YOUTUBE_API_URL,
    }),
    bluesky: blueskySessionClient({
      serviceUrl: config.BLUESKY_SERVICE_URL,
      timeoutMs: config.PLATFORM_HTTP_TIMEOUT_MS,
      fetchImpl,
    }),
    // Instances are named by whoever connects: every call goes through @postbus/net (see MastodonInstances).
    mastodon: mastodonConnectClient({
      instances: { baseUrlTemplate: config.MASTODON_INSTANCE_URL },
      clientName: 'Postbus',
      website: config.PUBLIC_BASE_URL,
      timeoutMs: config.PLATFORM_HTTP_TIMEOUT_MS,
    }),
    // One grant connects the member and each organization the member may post for, each as a profile.
    linkedin: linkedInOAuth({
      ...common,
      clientId: config.LINKEDIN_CLIENT_ID,
      clientSecret: config.LINKEDIN_CLIENT_SECRET,
      authorizeUrl: config.LINKEDIN_AUTHORIZE_URL,
      tokenUrl: config.LINKEDIN_TOKEN_URL,
      apiUrl: config.LINKEDIN_API_URL,
      version: config.LINKEDIN_API_VERSION,
    }),
    x: xOAuth({
      ...common,
      clientId: config.X_CLIENT_ID,
      clientSecret: config.X_CLIENT_SECRET,
      authorizeUrl: config.X_AUTHORIZE_URL,
      apiUrl: config.X_API_URL,
    }),
    pinterest: pinterestOAuth({
      ...common,
      clientId: config.PINTEREST_CLIENT_ID,
      clientSecret: config.PINTEREST_CLIENT_SECRET,
      authorizeUrl: config.PINTEREST_AUTHORIZE_URL,
      apiUrl: config.PINTEREST_API_URL,
    }),
  };
}

/** Readers of the publishing quota on the platforms that report one (Instagram, Threads), and X's check of the app's plan. */
export function createQuotaReaders(config: ConnectionsConfig): Partial<Record<Platform, QuotaReader>> {
  const timeoutMs = config.PLATFORM_HTTP_TIMEOUT_MS;
  return {
    instagram: ({ platformUserId, accessToken }) =>
      getInstagramPublishingQuota({
        baseUrl: versionedBase(config.INSTAGRAM_GRAPH_URL, config.META_GRAPH_VERSION),
        accessToken,
        userId: platformUserId,
        timeoutMs,
      }),
    threads: ({ platformUserId, accessToken }) =>
      getThreadsPublishingQuota({ baseUrl: config.THREADS_API_URL, accessToken, userId: platformUserId, timeoutMs }),
    // X reports no posts-left figure; one owned read (https://docs.x.com/x-api/users/get-my-user) tells whether the
    // connecting app's pay-per-use plan (credits, usage cap, enrolment) still lets it call the API at all.
    x: async ({ accessToken }) => {
      await getXMe({ baseUrl: config.X_API_URL, accessToken, timeoutMs });
      return null;
    },
  };
}
