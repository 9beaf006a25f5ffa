import { callOAuth, requireString, scopesOf } from '../oauth/oauth-http';
import {
  expiryFrom,
  joinUrl,
  withQuery,
  type GrantTokens,
  type OAuthAppOptions,
  type PlatformOAuthClient,
  type StoredCredentials,
} from '../oauth/oauth-client';
import { OAuthError } from '../oauth/oauth-error';
import { listFacebookPages } from './pages';

export interface FacebookOAuthOptions extends OAuthAppOptions {
  /** `https://www.facebook.com/v26.0/dialog/oauth` */
  authorizeUrl: string;
  /** `https://graph.facebook.com/v26.0`: code exchange, long-lived exchange, `/me/accounts`. */
  graphUrl: string;
  scopes?: string[];
}

/**
 * Publishing (posts, photos, videos, reels), replies to comments (pages_manage_engagement) and post insights (read_insights).
 * Page videos and reels need only pages_show_list, pages_read_engagement and pages_manage_posts
 * (https://developers.facebook.com/docs/video-api/guides/reels-publishing); publish_video belongs to
 * Live Video and its App Review, and one unapproved permission can cost the whole grant.
 */
export const FACEBOOK_SCOPES = [
  'pages_show_list',
  'pages_read_engagement',
  'pages_manage_posts',
  'pages_manage_engagement',
  'read_insights',
];

const platform = 'facebook' as const;

/**
 * Facebook Login for Pages. The code gives a short-lived user token, exchanged at once for a
 * long-lived one (`fb_exchange_token`, ~60 days). A profile is a Page: it publishes with the Page
 * token read from `/me/accounts` (which does not expire when read with a long-lived user token),
 * and keeps the user token to read the Page token again: Facebook has no refresh token.
 */
export function facebookOAuth(opts: FacebookOAuthOptions): PlatformOAuthClient {
  const now = opts.now ?? Date.now;
  return {
    platform,
    pkce: false,
    authorizeUrl: ({ redirectUri, state }) =>
      withQuery(opts.authorizeUrl, {
        client_id: opts.clientId,
        redirect_uri: redirectUri,
        state,
        response_type: 'code',
        scope: (opts.scopes ?? FACEBOOK_SCOPES).join(','),
      }),

    async exchangeCode({ code, redirectUri }): Promise<GrantTokens> {
      const action = 'exchanging the authorization code';
      const short = await callOAuth(opts, {
        platform,
        action,
        method: 'GET',
        url: joinUrl(opts.graphUrl, 'oauth/access_token'),
        query: { client_id: opts.clientId, redirect_uri: redirectUri, client_secret: opts.clientSecret, code },
      });
      const longAction = 'exchanging for a long-lived token';
      const long = await callOAuth(opts, {
        platform,
        action: longAction,
        method: 'GET',
        url: joinUrl(opts.graphUrl, 'oauth/access_token'),
        query: {
          grant_type: 'fb_exchange_token',
          client_id: opts.clientId,
          client_secret: opts.clientSecret,
          fb_exchange_token: requireString(platform, action, short, 'access_token'),
        },
      });
      return {
        accessToken: requireString(platform, longAction, long, 'access_token'),
        refreshToken: null,
        expiresAt: expiryFrom(long.expires_in, now()),
        refreshExpiresAt: null,
        scopes: scopesOf(short.scope),
      };
    },

    /** Every Page the person granted and may post to. */
    listAccounts: (tokens) => listFacebookPages(opts, tokens.accessToken),

    /** Reads the Page token again with the stored long-lived user token. */
    async refresh(stored: StoredCredentials) {
      if (!stored.refreshToken) {
        throw new OAuthError(
          'Facebook gave no user token for this Page to read a new Page token with; the profile must be reconnected.',
          { platform, transient: false, tokenRefused: true, code: 'no_user_token' },
        );
      }
      const pages = await listFacebookPages(opts, stored.refreshToken);
      const page = pages.find((p) => p.platformUserId === stored.platformUserId);
      if (!page) {
        throw new OAuthError(
          'The Facebook Page is no longer among the Pages granted to Postbus; the profile must be reconnected.',
          { platform, transient: false, tokenRefused: true, code: 'page_not_granted' },
        );
      }
      return { accessToken: page.credentials.accessToken, refreshToken: null, expiresAt: null };
    },
  };
}
