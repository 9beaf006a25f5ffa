import type { Platform } from '@postbus/contracts';
import {
  asPrivateJwk,
  blueskySessionClient,
  refreshBlueskyOAuthCredentials,
  type BlueskyOAuthOptions,
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
import type { ProfileRow } from '../profiles/profile.repository';
import { sealedAt, type TokenVault } from '../vault/token-vault';
import type { ConnectionsConfig } from '../config';
import { blueskyOAuthOptions } from '../connect/bluesky-oauth-client';

/**
 * The platforms connected through OAuth consent with one app; Bluesky is connected with an app
 * password instead, Mastodon through an app registered on each instance (see mastodon-connect).
 */
export type OAuthPlatform = Exclude<Platform, 'bluesky' | 'mastodon'>;
export type PlatformClients = Record<OAuthPlatform, PlatformOAuthClient> & {
  bluesky: BlueskySessionClient;
  mastodon: MastodonConnectClient;
  /** Bluesky through OAuth (atproto OAuth: PAR, PKCE, DPoP); absent when this deployment cannot offer it (see bluesky-oauth-client.ts). */
  blueskyOAuth?: BlueskyOAuthOptions;
};

/** What a profile's token is refreshed with. */
export type RefreshClient = Pick<PlatformOAuthClient, 'rotatesRefreshToken' | 'refresh'>;

/**
 * A Bluesky profile connected through OAuth refreshes with its own session (single-use refresh
 * tokens, its DPoP key, its issuer); every other profile with its platform's client.
 */
export function refreshClientOf(
  ports: { clients: PlatformClients; vault: TokenVault },
  row: ProfileRow,
  platform: Platform,
): RefreshClient {
  const oauth = ports.clients.blueskyOAuth;
  if (platform !== 'bluesky' || !row.dpop_jwk_enc || !row.pds_url || !row.oauth_issuer || !oauth)
    return ports.clients[platform];
  const binding = {
    dpopJwk: asPrivateJwk(JSON.parse(ports.vault.open(row.dpop_jwk_enc, sealedAt(row.id, 'dpop_jwk_enc')))),
    pdsUrl: row.pds_url,
    issuer: row.oauth_issuer,
  };
  return { rotatesRefreshToken: true, refresh: (stored) => refreshBlueskyOAuthCredentials(oauth, stored, binding) };
}

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
    ...optional('blueskyOAuth', blueskyOAuthOptions(config)),
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

/** The member only when there is a value: absent, not undefined (the handoff lists the clients' consent origins from the values). */
function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}
