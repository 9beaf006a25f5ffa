import { callOAuth, optionalString, requireString, scopesOf } from '../oauth/oauth-http';
import {
  expiryFrom,
  joinUrl,
  withQuery,
  type GrantTokens,
  type OAuthAppOptions,
  type PlatformOAuthClient,
  type RefreshedCredentials,
  type StoredCredentials,
} from '../oauth/oauth-client';
import { OAuthError } from '../oauth/oauth-error';
import { isPlatformError } from '../errors';
import { X_PLATFORM } from './api';
import { getXMe } from './posts';

export interface XOAuthOptions extends OAuthAppOptions {
  /** `https://x.com/i/oauth2/authorize` */
  authorizeUrl: string;
  /** `https://api.x.com`: `/2/oauth2/token` and `/2/users/me`. */
  apiUrl: string;
}

/**
 * Post, upload media, read who connected; `offline.access` for a refresh token
 * (https://docs.x.com/fundamentals/authentication/oauth-2-0/authorization-code).
 */
export const X_SCOPES = ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access'];

const platform = X_PLATFORM;
const isToken = (b: Record<string, unknown>) => typeof b.access_token === 'string' && !b.error;

/**
 * X OAuth 2.0 Authorization Code with PKCE, Postbus as a confidential client (client id and secret
 * sent as HTTP Basic). Access tokens last 2 hours; each refresh answers a new refresh token and
 * retires the old one, so a refresh whose answer was lost must not be sent blindly again.
 */
export function xOAuth(opts: XOAuthOptions): PlatformOAuthClient {
  const now = opts.now ?? Date.now;
  const tokenUrl = joinUrl(opts.apiUrl, '2/oauth2/token');
  const basicAuth = { user: opts.clientId, password: opts.clientSecret };
  return {
    platform,
    pkce: true,
    rotatesRefreshToken: true,
    // https://docs.x.com/fundamentals/authentication/oauth-2-0/authorization-code (step 2)
    authorizeUrl: ({ redirectUri, state, codeChallenge }) =>
      withQuery(opts.authorizeUrl, {
        response_type: 'code',
        client_id: opts.clientId,
        redirect_uri: redirectUri,
        scope: X_SCOPES.join(' '),
        state,
        code_challenge: codeChallenge,
        code_challenge_method: codeChallenge ? 'S256' : undefined,
      }),

    async exchangeCode({ code, redirectUri, codeVerifier }) {
      const action = 'exchanging the authorization code';
      // POST /2/oauth2/token grant_type=authorization_code: https://docs.x.com/fundamentals/authentication/oauth-2-0/authorization-code (step 4)
      const answer = await callOAuth(opts, {
        platform,
        action,
        method: 'POST',
        url: tokenUrl,
        basicAuth,
        form: {
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          code_verifier: codeVerifier,
          client_id: opts.clientId,
        },
        isSuccess: isToken,
      });
      return tokensOf(answer, action, now);
    },

    async listAccounts(tokens) {
      // GET /2/users/me: https://docs.x.com/x-api/users/get-my-user
      const me = await asOAuthError(() =>
        getXMe({
          baseUrl: opts.apiUrl,
          accessToken: tokens.accessToken,
          timeoutMs: opts.timeoutMs,
          fetchImpl: opts.fetchImpl,
        }),
      );
      return [
        {
          platformUserId: me.id,
          handle: me.username,
          displayName: me.name,
          profileUrl: `https://x.com/${me.username}`,
          profileImageUrl: me.profileImageUrl,
          credentials: {
            platformUserId: me.id,
            accessToken: tokens.accessToken,
            refreshToken: tokens.refreshToken,
            expiresAt: tokens.expiresAt,
          },
          scopes: tokens.scopes,
        },
      ];
    },

    refresh: (stored) => refreshXTokens(opts, tokenUrl, now, stored),
  };
}

function tokensOf(answer: Record<string, unknown>, action: string, now: () => number): GrantTokens {
  return {
    accessToken: requireString(platform, action, answer, 'access_token'),
    refreshToken: optionalString(answer.refresh_token) ?? null,
    expiresAt: expiryFrom(answer.expires_in, now()),
    refreshExpiresAt: null,
    scopes: scopesOf(answer.scope),
  };
}

async function refreshXTokens(
  opts: XOAuthOptions,
  tokenUrl: string,
  now: () => number,
  stored: StoredCredentials,
): Promise<RefreshedCredentials> {
  if (!stored.refreshToken)
    throw new OAuthError('X gave no refresh token for this profile (offline.access was not granted); reconnect it.', {
      platform,
      transient: false,
      tokenRefused: true,
      code: 'no_refresh_token',
    });
  const action = 'refreshing the access token';
  // POST /2/oauth2/token grant_type=refresh_token: https://docs.x.com/fundamentals/authentication/oauth-2-0/authorization-code (step 5)
  const answer = await callOAuth(opts, {
    platform,
    action,
    method: 'POST',
    url: tokenUrl,
    basicAuth: { user: opts.clientId, password: opts.clientSecret },
    form: { grant_type: 'refresh_token', refresh_token: stored.refreshToken, client_id: opts.clientId },
    isSuccess: isToken,
  });
  const tokens = tokensOf(answer, action, now);
  return {
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    expiresAt: tokens.expiresAt,
    ...(tokens.scopes.length && { scopes: tokens.scopes }),
  };
}

async function asOAuthError<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!isPlatformError(err)) throw err;
    throw new OAuthError(err.message, {
      platform,
      transient: err.transient,
      tokenRefused: err.tokenRejected,
      code: err.code,
      status: err.status,
      cause: err,
    });
  }
}
