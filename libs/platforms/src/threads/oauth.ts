import { callOAuth, optionalString, requireString, scopesOf } from '../oauth/oauth-http';
import {
  joinUrl,
  withQuery,
  type GrantTokens,
  type OAuthAppOptions,
  type PlatformOAuthClient,
  type StoredCredentials,
} from '../oauth/oauth-client';
import { exchangeForLongLivedToken, refreshLongLivedToken } from '../meta/long-lived-token';
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
export const THREADS_SCOPES = [
  'threads_basic',
  'threads_content_publish',
  'threads_read_replies',
  'threads_manage_replies',
  'threads_manage_insights',
];

const platform = 'threads' as const;

/**
 * Threads OAuth: the code gives a short-lived token (1 h), exchanged at once for a long-lived one
 * (60 days, `th_exchange_token`); the long-lived token itself is refreshed (`th_refresh_token`).
 */
export function threadsOAuth(opts: ThreadsOAuthOptions): PlatformOAuthClient {
  const grants = { platform, graphUrl: opts.graphUrl, exchange: 'th_exchange_token', refresh: 'th_refresh_token' };
  return {
    platform,
    pkce: false,
    authorizeUrl: ({ redirectUri, state }) =>
      withQuery(opts.authorizeUrl, {
        client_id: opts.clientId,
        redirect_uri: redirectUri,
        scope: (opts.scopes ?? THREADS_SCOPES).join(','),
        response_type: 'code',
        state,
      }),

    async exchangeCode({ code, redirectUri }): Promise<GrantTokens> {
      const action = 'exchanging the authorization code';
      const short = await callOAuth(opts, {
        platform,
        action,
        method: 'POST',
        url: joinUrl(opts.graphUrl, 'oauth/access_token'),
        form: {
          client_id: opts.clientId,
          client_secret: opts.clientSecret,
          code,
          grant_type: 'authorization_code',
          redirect_uri: redirectUri,
        },
      });
      const long = await exchangeForLongLivedToken(
        opts,
        grants,
        requireString(platform, action, short, 'access_token'),
      );
      return {
        ...long,
        refreshToken: null,
        refreshExpiresAt: null,
        scopes: scopesOf(short.scope),
        platformUserId: optionalString(short.user_id),
      };
    },

    async listAccounts(tokens) {
      return [await readThreadsAccount(opts, tokens)];
    },

    refresh: (stored: StoredCredentials) => refreshLongLivedToken(opts, grants, stored.accessToken),
  };
}
