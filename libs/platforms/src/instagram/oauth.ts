import { callOAuth, optionalString, requireString, scopesOf } from '../oauth/oauth-http';
import {
  withQuery,
  type GrantTokens,
  type OAuthAppOptions,
  type PlatformOAuthClient,
  type StoredCredentials,
} from '../oauth/oauth-client';
import { exchangeForLongLivedToken, refreshLongLivedToken } from '../meta/long-lived-token';
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
export const INSTAGRAM_SCOPES = [
  'instagram_business_basic',
  'instagram_business_content_publish',
  'instagram_business_manage_comments',
  'instagram_business_manage_insights',
];

const platform = 'instagram' as const;

/**
 * Instagram API with Instagram Login. The code gives a short-lived token (1 h) that is exchanged
 * at once for a long-lived one (60 days); there is no refresh token: the long-lived token itself
 * is refreshed (`ig_refresh_token`) while it is still valid.
 */
export function instagramOAuth(opts: InstagramOAuthOptions): PlatformOAuthClient {
  const grants = { platform, graphUrl: opts.graphUrl, exchange: 'ig_exchange_token', refresh: 'ig_refresh_token' };
  return {
    platform,
    pkce: false,
    authorizeUrl: ({ redirectUri, state }) =>
      withQuery(opts.authorizeUrl, {
        client_id: opts.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: (opts.scopes ?? INSTAGRAM_SCOPES).join(','),
        state,
      }),

    async exchangeCode({ code, redirectUri }): Promise<GrantTokens> {
      const action = 'exchanging the authorization code';
      const answer = await callOAuth(opts, {
        platform,
        action,
        method: 'POST',
        url: opts.tokenUrl,
        form: {
          client_id: opts.clientId,
          client_secret: opts.clientSecret,
          grant_type: 'authorization_code',
          redirect_uri: redirectUri,
          code,
        },
      });
      // Documented both flat and wrapped in `data: [...]`.
      const short =
        Array.isArray(answer.data) && answer.data[0] && typeof answer.data[0] === 'object'
          ? (answer.data[0] as Record<string, unknown>)
          : answer;
      const long = await exchangeForLongLivedToken(
        opts,
        grants,
        requireString(platform, action, short, 'access_token'),
      );
      return {
        ...long,
        refreshToken: null,
        refreshExpiresAt: null,
        scopes: scopesOf(short.permissions),
        platformUserId: optionalString(short.user_id),
      };
    },

    async listAccounts(tokens) {
      return [await readInstagramAccount(opts, tokens)];
    },

    refresh: (stored: StoredCredentials) => refreshLongLivedToken(opts, grants, stored.accessToken),
  };
}
