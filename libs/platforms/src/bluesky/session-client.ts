import { OAuthError } from '../oauth/oauth-error';
import type { PlatformAccount, RefreshedCredentials, StoredCredentials } from '../oauth/oauth-client';
import { isPlatformError } from '../errors';
import { BLUESKY_PLATFORM, type BlueskyApiOptions } from './api';
import { createBlueskySession, refreshBlueskySession, type BlueskySession } from './publish';

/**
 * Bluesky accounts are connected with an app password (https://atproto.com/specs/xrpc#app-passwords):
 * the password is traded once for a session (an access JWT of about 2 hours and a refresh JWT of
 * about 90 days on bsky.social) and never kept; the refresh JWT renews the session. OAuth per the
 * atproto profile (PAR, PKCE, DPoP: https://atproto.com/specs/oauth) is another way in, not offered yet.
 */
export interface BlueskySessionClient {
  readonly platform: typeof BLUESKY_PLATFORM;
  /** The refresh JWT is replaced by each refreshSession; the PDS still takes the previous one for a short grace period. */
  readonly rotatesRefreshToken: false;
  /** Signs in with a handle or DID and an app password; the account with its session as credentials. */
  signIn(identifier: string, appPassword: string): Promise<PlatformAccount>;
  refresh(stored: StoredCredentials): Promise<RefreshedCredentials>;
}

export function blueskySessionClient(api: Omit<BlueskyApiOptions, 'accessJwt'>): BlueskySessionClient {
  return {
    platform: BLUESKY_PLATFORM,
    rotatesRefreshToken: false,
    async signIn(identifier, appPassword) {
      const session = await asOAuthError(
        () => createBlueskySession(api, identifier, appPassword),
        'The handle and app password were not accepted',
      );
      return accountOf(session);
    },
    async refresh(stored) {
      if (!stored.refreshToken) {
        throw new OAuthError(
          'The Bluesky session has no refresh token; connect the account again with an app password.',
          { platform: BLUESKY_PLATFORM, transient: false, tokenRefused: true, code: 'no_refresh_token' },
        );
      }
      const session = await asOAuthError(
        () => refreshBlueskySession(api, stored.refreshToken!),
        'Bluesky refused to renew the session',
      );
      return {
        accessToken: session.accessJwt,
        refreshToken: session.refreshJwt,
        expiresAt: jwtExpiry(session.accessJwt),
        refreshExpiresAt: jwtExpiry(session.refreshJwt),
      };
    },
  };
}

function accountOf(session: BlueskySession): PlatformAccount {
  return {
    platformUserId: session.did,
    handle: session.handle,
    displayName: session.handle,
    profileUrl: `https://bsky.app/profile/${session.handle}`,
    profileImageUrl: null,
    credentials: {
      platformUserId: session.did,
      accessToken: session.accessJwt,
      refreshToken: session.refreshJwt,
      expiresAt: jwtExpiry(session.accessJwt),
    },
  };
}

/** A refused sign-in or refresh (401, AuthenticationRequired, ExpiredToken) asks for a new app password; other failures pass as they are. */
async function asOAuthError<T>(call: () => Promise<T>, refusal: string): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (
      isPlatformError(err) &&
      !err.transient &&
      (err.tokenRejected ||
        err.status === 401 ||
        err.code === 'AuthenticationRequired' ||
        err.code === 'AccountTakedown')
    ) {
      // callXrpc's message carries the PDS's own words in parentheses: "(AuthenticationRequired: Invalid identifier or password)".
      const said = /\(([^)]*)\)/.exec(err.message)?.[1] ?? String(err.code ?? 'refused');
      throw new OAuthError(`${refusal} (${said}); connect the account again with a new app password.`, {
        platform: BLUESKY_PLATFORM,
        transient: false,
        tokenRefused: true,
        code: err.code,
        status: err.status,
      });
    }
    if (isPlatformError(err))
      throw new OAuthError(err.message, {
        platform: BLUESKY_PLATFORM,
        transient: err.transient,
        code: err.code,
        status: err.status,
        cause: err,
      });
    throw err;
  }
}

/**
 * When a session JWT expires, from its `exp` claim (read, not verified: only the PDS verifies its
 * tokens; Postbus uses this to refresh ahead). Null when the token carries none.
 */
export function jwtExpiry(jwt: string): Date | null {
  try {
    const payload = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' && Number.isFinite(payload.exp) ? new Date(payload.exp * 1000) : null;
  } catch {
    return null;
  }
}
