import { callOAuth, requireString } from '../oauth/oauth-http';
import { expiryFrom, joinUrl, type OAuthAppOptions, type RefreshedCredentials } from '../oauth/oauth-client';

/**
 * Instagram and Threads keep no refresh token: a short-lived token (1 h) is exchanged for a
 * long-lived one (60 days), which is itself refreshed while still valid. Only the grant types differ
 * (https://developers.facebook.com/docs/instagram-platform/reference/refresh_access_token,
 * https://developers.facebook.com/docs/threads/get-started/long-lived-tokens).
 */
export interface LongLivedTokenGrants {
  platform: 'instagram' | 'threads';
  /** The Graph host the exchange and refresh are under (`https://graph.instagram.com`). */
  graphUrl: string;
  /** `ig_exchange_token`, `th_exchange_token`. */
  exchange: string;
  /** `ig_refresh_token`, `th_refresh_token`. */
  refresh: string;
}

/** GET {graphUrl}/access_token: the long-lived token for a short-lived one. */
export async function exchangeForLongLivedToken(
  app: OAuthAppOptions,
  grants: LongLivedTokenGrants,
  shortToken: string,
): Promise<{ accessToken: string; expiresAt: Date | null }> {
  const action = 'exchanging for a long-lived token';
  const long = await callOAuth(app, {
    platform: grants.platform,
    action,
    method: 'GET',
    url: joinUrl(grants.graphUrl, 'access_token'),
    query: { grant_type: grants.exchange, client_secret: app.clientSecret, access_token: shortToken },
  });
  return {
    accessToken: requireString(grants.platform, action, long, 'access_token'),
    expiresAt: expiryFrom(long.expires_in, (app.now ?? Date.now)()),
  };
}

/** GET {graphUrl}/refresh_access_token: a fresh long-lived token for one still valid. */
export async function refreshLongLivedToken(
  app: OAuthAppOptions,
  grants: LongLivedTokenGrants,
  accessToken: string,
): Promise<RefreshedCredentials> {
  const action = 'refreshing the access token';
  const answer = await callOAuth(app, {
    platform: grants.platform,
    action,
    method: 'GET',
    url: joinUrl(grants.graphUrl, 'refresh_access_token'),
    query: { grant_type: grants.refresh, access_token: accessToken },
  });
  return {
    accessToken: requireString(grants.platform, action, answer, 'access_token'),
    refreshToken: null,
    expiresAt: expiryFrom(answer.expires_in, (app.now ?? Date.now)()),
  };
}
