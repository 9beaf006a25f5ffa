import { callOAuth, optionalString, requireString, scopesOf } from '../oauth/oauth-http';
import {
  expiryFrom,
  withQuery,
  type GrantTokens,
  type OAuthAppOptions,
  type PlatformOAuthClient,
  type RefreshedCredentials,
  type StoredCredentials,
} from '../oauth/oauth-client';
import { OAuthError } from '../oauth/oauth-error';
import { listYouTubeChannels } from './channels';

export interface YouTubeOAuthOptions extends OAuthAppOptions {
  /** `https://accounts.google.com/o/oauth2/v2/auth` */
  authorizeUrl: string;
  /** `https://oauth2.googleapis.com/token` */
  tokenUrl: string;
  /** `https://www.googleapis.com/youtube/v3`: `/channels?mine=true`. */
  apiUrl: string;
  scopes?: string[];
}

/** Upload, and read which channel the grant reaches. */
/** youtube.force-ssl: first comments (commentThreads.insert, https://developers.google.com/youtube/v3/docs/commentThreads/insert). */
export const YOUTUBE_SCOPES = [
  'https://www.googleapis.com/auth/youtube.upload',
  'https://www.googleapis.com/auth/youtube.readonly',
  'https://www.googleapis.com/auth/youtube.force-ssl',
];

const platform = 'youtube' as const;

/**
 * Google OAuth for YouTube, offline access with PKCE. Access tokens last about an hour; the
 * refresh token has no fixed lifetime and is usually not sent again on refresh (keep the old one).
 */
export function youtubeOAuth(opts: YouTubeOAuthOptions): PlatformOAuthClient {
  const now = opts.now ?? Date.now;
  return {
    platform,
    pkce: true,
    authorizeUrl: ({ redirectUri, state, codeChallenge }) =>
      withQuery(opts.authorizeUrl, {
        client_id: opts.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: (opts.scopes ?? YOUTUBE_SCOPES).join(' '),
        access_type: 'offline',
        prompt: 'consent',
        include_granted_scopes: 'true',
        state,
        code_challenge: codeChallenge,
        code_challenge_method: codeChallenge ? 'S256' : undefined,
      }),

    async exchangeCode({ code, redirectUri, codeVerifier }): Promise<GrantTokens> {
      const action = 'exchanging the authorization code';
      const answer = await callOAuth(opts, {
        platform,
        action,
        method: 'POST',
        url: opts.tokenUrl,
        form: {
          code,
          client_id: opts.clientId,
          client_secret: opts.clientSecret,
          redirect_uri: redirectUri,
          grant_type: 'authorization_code',
          code_verifier: codeVerifier,
        },
        isSuccess: isToken,
      });
      return {
        accessToken: requireString(platform, action, answer, 'access_token'),
        refreshToken: optionalString(answer.refresh_token) ?? null,
        expiresAt: expiryFrom(answer.expires_in, now()),
        refreshExpiresAt: null,
        scopes: scopesOf(answer.scope),
      };
    },

    listAccounts: (tokens) => listYouTubeChannels(opts, tokens),

    refresh: (stored) => refreshYouTubeTokens(opts, now, stored),
  };
}

const isToken = (b: Record<string, unknown>) => typeof b.access_token === 'string' && !b.error;

/** Trades the stored refresh token for a new access token; Google usually sends no new refresh token. */
async function refreshYouTubeTokens(
  opts: YouTubeOAuthOptions,
  now: () => number,
  stored: StoredCredentials,
): Promise<RefreshedCredentials> {
  if (!stored.refreshToken) {
    throw new OAuthError('Google gave no refresh token for this channel; it must be reconnected.', {
      platform,
      transient: false,
      tokenRefused: true,
      code: 'no_refresh_token',
    });
  }
  const action = 'refreshing the access token';
  const answer = await callOAuth(opts, {
    platform,
    action,
    method: 'POST',
    url: opts.tokenUrl,
    form: {
      client_id: opts.clientId,
      client_secret: opts.clientSecret,
      grant_type: 'refresh_token',
      refresh_token: stored.refreshToken,
    },
    isSuccess: isToken,
  });
  const scopes = scopesOf(answer.scope);
  return {
    accessToken: requireString(platform, action, answer, 'access_token'),
    refreshToken: optionalString(answer.refresh_token) ?? null,
    expiresAt: expiryFrom(answer.expires_in, now()),
    ...(scopes.length && { scopes }),
  };
}
