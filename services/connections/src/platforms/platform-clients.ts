import type { Platform } from '@postbus/contracts';
import { facebookOAuth, instagramOAuth, threadsOAuth, tiktokOAuth, youtubeOAuth, type PlatformOAuthClient } from '@postbus/platforms';
import type { ConnectionsConfig } from '../config';

export type PlatformClients = Record<Platform, PlatformOAuthClient>;

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
  };
}
