import { callOAuth, optionalString, requireString, scopesOf } from '../oauth/oauth-http';
import { expiryFrom, joinUrl, withQuery, type GrantTokens, type OAuthAppOptions, type PlatformOAuthClient, type StoredCredentials } from '../oauth/oauth-client';
import { readInstagramAccount } from './profile';

export interface InstagramOAuthOptions extends OAuthAppOptions {
  /** `https://www.instagram.com/oauth/authorize` */
  authorizeUrl: string;
  /** `https://api.instagram.com/oauth/access_token` (short-lived token) */
  tokenUrl: string;
  /** `https://graph.instagram.com`: long-lived exchange, refresh and `/me`. */
  graphUrl: string;
  scopes?: string[];
}

/** Publishing, comment replies for auto-reply (manage_comments) and media insights (manage_insights). */
export const INSTAGRAM_SCOPES = ['instagram_business_basic', 'instagram_business_content_publish', 'instagram_business_manage_comments', 'instagram_business_manage_insights'];

const platform = 'instagram' as const;

/**
 * Instagram API with Instagram Login. The code gives a short-lived token (1 h) that is exchanged
 * at once for a long-lived one (60 days); there is no refresh token: the long-lived token itself
 * is refreshed (`ig_refresh_token`) while it is still valid.
 */
export function instagramOAuth(opts: InstagramOAuthOptions): PlatformOAuthClient {
  const now = opts.now ?? Date.now;
  return {
    platform,
    pkce: false,
    authorizeUrl: ({ redirectUri, state }) =>
      withQuery(opts.authorizeUrl, { client_id: opts.clientId, redirect_uri: redirectUri, response_type: 'code', scope: (opts.scopes ?? INSTAGRAM_SCOPES).join(','), state }),

    async exchangeCode({ code, redirectUri }): Promise<GrantTokens> {
      const action = 'exchanging the authorization code';
      const answer = await callOAuth(opts, {
        platform,
        action,
        method: 'POST',
        url: opts.tokenUrl,
        form: { client_id: opts.clientId, client_secret: opts.clientSecret, grant_type: 'authorization_code', redirect_uri: redirectUri, code },
      });
      // Documented both flat and wrapped in `data: [...]`.
      const short = Array.isArray(answer.data) && answer.data[0] && typeof answer.data[0] === 'object' ? (answer.data[0] as Record<string, unknown>) : answer;
      const shortToken = requireString(platform, action, short, 'access_token');
      const long = await callOAuth(opts, {
        platform,
        action: 'exchanging for a long-lived token',
        method: 'GET',
        url: joinUrl(opts.graphUrl, 'access_token'),
        query: { grant_type: 'ig_exchange_token', client_secret: opts.clientSecret, access_token: shortToken },
      });
      return {
        accessToken: requireString(platform, 'exchanging for a long-lived token', long, 'access_token'),
        refreshToken: null,
        expiresAt: expiryFrom(long.expires_in, now()),
        refreshExpiresAt: null,
        scopes: scopesOf(short.permissions),
        platformUserId: optionalString(short.user_id),
      };
    },

    async listAccounts(tokens) {
      return [await readInstagramAccount(opts, tokens)];
    },

    async refresh(stored: StoredCredentials) {
      const action = 'refreshing the access token';
      const answer = await callOAuth(opts, {
        platform,
        action,
        method: 'GET',
        url: joinUrl(opts.graphUrl, 'refresh_access_token'),
        query: { grant_type: 'ig_refresh_token', access_token: stored.accessToken },
      });
      return { accessToken: requireString(platform, action, answer, 'access_token'), refreshToken: null, expiresAt: expiryFrom(answer.expires_in, now()) };
    },
  };
}
