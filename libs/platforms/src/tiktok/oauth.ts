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
import { readTikTokAccount } from './user-info';

export interface TikTokOAuthOptions extends OAuthAppOptions {
  /** `https://www.tiktok.com/v2/auth/authorize/` */
  authorizeUrl: string;
  /** `https://open.tiktokapis.com`: `/v2/oauth/token/`, `/v2/user/info/`, `/v2/post/publish/creator_info/query/`. */
  apiUrl: string;
  scopes?: string[];
}

/** Posting (direct and inbox) and `video.list` for the view, like, comment and share counts of posted videos. */
export const TIKTOK_SCOPES = ['user.info.basic', 'user.info.profile', 'video.publish', 'video.upload', 'video.list'];

const platform = 'tiktok' as const;

/**
 * TikTok Login Kit v2 with PKCE. Access tokens last hours; refresh tokens rotate on every refresh
 * (the newest one must be kept) and expire after months. Lifetimes come from `expires_in` and
 * `refresh_expires_in`, never from constants.
 */
export function tiktokOAuth(opts: TikTokOAuthOptions): PlatformOAuthClient {
  const now = opts.now ?? Date.now;
  const tokenUrl = joinUrl(opts.apiUrl, 'v2/oauth/token/');
  return {
    platform,
    pkce: true,
    // "The previous refresh token stops working once a new one is issued": https://developers.tiktok.com/doc/oauth-user-access-token-management
    rotatesRefreshToken: true,
    authorizeUrl: ({ redirectUri, state, codeChallenge }) =>
      withQuery(opts.authorizeUrl, {
        client_key: opts.clientId,
        scope: (opts.scopes ?? TIKTOK_SCOPES).join(','),
        response_type: 'code',
        redirect_uri: redirectUri,
        state,
        code_challenge: codeChallenge,
        code_challenge_method: codeChallenge ? 'S256' : undefined,
      }),

    async exchangeCode({ code, redirectUri, codeVerifier }) {
      const action = 'exchanging the authorization code';
      const answer = await callOAuth(opts, {
        platform,
        action,
        method: 'POST',
        url: tokenUrl,
        form: {
          client_key: opts.clientId,
          client_secret: opts.clientSecret,
          code,
          grant_type: 'authorization_code',
          redirect_uri: redirectUri,
          code_verifier: codeVerifier,
        },
        isSuccess: isToken,
      });
      return tokensOf(answer, action, now);
    },

    async listAccounts(tokens) {
      return [await readTikTokAccount(opts, tokens)];
    },

    refresh: (stored) => refreshTikTokTokens(opts, tokenUrl, now, stored),
  };
}

const isToken = (b: Record<string, unknown>) => typeof b.access_token === 'string' && !b.error;

/** The tokens in a token endpoint's answer; lifetimes from `expires_in` and `refresh_expires_in`. */
function tokensOf(answer: Record<string, unknown>, action: string, now: () => number): GrantTokens {
  return {
    accessToken: requireString(platform, action, answer, 'access_token'),
    refreshToken: optionalString(answer.refresh_token) ?? null,
    expiresAt: expiryFrom(answer.expires_in, now()),
    refreshExpiresAt: expiryFrom(answer.refresh_expires_in, now()),
    scopes: scopesOf(answer.scope),
    platformUserId: optionalString(answer.open_id),
  };
}

/** Trades the stored refresh token for new tokens; TikTok rotates the refresh token each time. */
async function refreshTikTokTokens(
  opts: TikTokOAuthOptions,
  tokenUrl: string,
  now: () => number,
  stored: StoredCredentials,
): Promise<RefreshedCredentials> {
  if (!stored.refreshToken) {
    throw new OAuthError('TikTok gave no refresh token for this profile; it must be reconnected.', {
      platform,
      transient: false,
      tokenRefused: true,
      code: 'no_refresh_token',
    });
  }
  const action = 'refreshing the access token';
  // POST /v2/oauth/token/ grant_type=refresh_token: https://developers.tiktok.com/doc/oauth-user-access-token-management
  const answer = await callOAuth(opts, {
    platform,
    action,
    method: 'POST',
    url: tokenUrl,
    form: {
      client_key: opts.clientId,
      client_secret: opts.clientSecret,
      grant_type: 'refresh_token',
      refresh_token: stored.refreshToken,
    },
    isSuccess: isToken,
  });
  const tokens = tokensOf(answer, action, now);
  return {
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    expiresAt: tokens.expiresAt,
    refreshExpiresAt: tokens.refreshExpiresAt,
    ...(tokens.scopes.length && { scopes: tokens.scopes }),
  };
}
