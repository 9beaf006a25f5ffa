import { callOAuth, optionalString, requireString, scopesOf } from '../oauth/oauth-http';
import { expiryFrom, joinUrl, withQuery, type GrantTokens, type OAuthAppOptions, type PlatformOAuthClient, type StoredCredentials } from '../oauth/oauth-client';
import { readThreadsAccount } from './profile';

export interface ThreadsOAuthOptions extends OAuthAppOptions {
  /** `https://threads.net/oauth/authorize` */
  authorizeUrl: string;
  /** `https://graph.threads.net`: code exchange, long-lived exchange and refresh. */
  graphUrl: string;
  /** `https://graph.threads.net/v1.0`: `/me`. */
  apiUrl: string;
  scopes?: string[];
}

/** Publishing, reading and answering replies for auto-reply, and post insights. */
export const THREADS_SCOPES = ['threads_basic', 'threads_content_publish', 'threads_read_replies', 'threads_manage_replies', 'threads_manage_insights'];

const platform = 'threads' as const;

/**
 * Threads OAuth: the code gives a short-lived token (1 h), exchanged at once for a long-lived one
 * (60 days, `th_exchange_token`); the long-lived token itself is refreshed (`th_refresh_token`).
 */
export function threadsOAuth(opts: ThreadsOAuthOptions): PlatformOAuthClient {
  const now = opts.now ?? Date.now;
  return {
    platform,
    pkce: false,
    authorizeUrl: ({ redirectUri, state }) =>
      withQuery(opts.authorizeUrl, { client_id: opts.clientId, redirect_uri: redirectUri, scope: (opts.scopes ?? THREADS_SCOPES).join(','), response_type: 'code', state }),

    async exchangeCode({ code, redirectUri }): Promise<GrantTokens> {
      const action = 'exchanging the authorization code';
      const short = await callOAuth(opts, {
        platform,
        action,
        method: 'POST',
        url: joinUrl(opts.graphUrl, 'oauth/access_token'),
        form: { client_id: opts.clientId, client_secret: opts.clientSecret, code, grant_type: 'authorization_code', redirect_uri: redirectUri },
      });
      const long = await callOAuth(opts, {
        platform,
        action: 'exchanging for a long-lived token',
        method: 'GET',
        url: joinUrl(opts.graphUrl, 'access_token'),
        query: { grant_type: 'th_exchange_token', client_secret: opts.clientSecret, access_token: requireString(platform, action, short, 'access_token') },
      });
      return {
        accessToken: requireString(platform, 'exchanging for a long-lived token', long, 'access_token'),
        refreshToken: null,
        expiresAt: expiryFrom(long.expires_in, now()),
        refreshExpiresAt: null,
        scopes: scopesOf(short.scope),
        platformUserId: optionalString(short.user_id),
      };
    },

    async listAccounts(tokens) {
      return [await readThreadsAccount(opts, tokens)];
    },

    async refresh(stored: StoredCredentials) {
      const action = 'refreshing the access token';
      const answer = await callOAuth(opts, {
        platform,
        action,
        method: 'GET',
        url: joinUrl(opts.graphUrl, 'refresh_access_token'),
        query: { grant_type: 'th_refresh_token', access_token: stored.accessToken },
      });
      return { accessToken: requireString(platform, action, answer, 'access_token'), refreshToken: null, expiresAt: expiryFrom(answer.expires_in, now()) };
    },
  };
}
