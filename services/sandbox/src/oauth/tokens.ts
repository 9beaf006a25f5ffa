import { createHash } from 'node:crypto';
import type { Platform } from '@postbus/contracts';
import type { SandboxState } from '../state';
import type { AuthCode, IssuedToken, RefreshGrant } from './oauth-store';
import { invalidClient, invalidGrant, invalidRequest } from './oauth-problem';

const CODE_TTL_MS = 10 * 60_000;

function log(state: SandboxState, entry: Omit<IssuedToken, 'issuedAt'>): void {
  state.oauth.issued.push({ ...entry, issuedAt: new Date(state.now()).toISOString() });
}

const expiry = (state: SandboxState, ttlSec: number | null) =>
  ttlSec && ttlSec > 0 ? state.now() + ttlSec * 1000 : null;

/** A code for the accounts the person granted on the consent page. */
export function issueCode(state: SandboxState, grant: Omit<AuthCode, 'code' | 'expiresAt' | 'used'>): AuthCode {
  const code: AuthCode = { ...grant, code: state.ids.token(''), expiresAt: state.now() + CODE_TTL_MS, used: false };
  state.oauth.codes.set(code.code, code);
  return code;
}

/** Checks and consumes a code: known, unused, unexpired, same client, same redirect URI, PKCE verifier matching. */
export function redeemCode(
  state: SandboxState,
  platform: Platform,
  p: { code?: string; clientId?: string; redirectUri?: string; codeVerifier?: string },
): AuthCode {
  if (!p.code) throw invalidRequest('code is required');
  if (!p.clientId) throw invalidClient('client id is required');
  const code = state.oauth.codes.get(p.code);
  if (!code || code.platform !== platform) throw invalidGrant('Authorization code is invalid.');
  if (code.used) throw invalidGrant('Authorization code has been used.');
  code.used = true;
  if (code.expiresAt <= state.now()) throw invalidGrant('Authorization code has expired.');
  if (code.clientId !== p.clientId) throw invalidGrant('Authorization code was issued to another client.');
  if (code.redirectUri !== p.redirectUri)
    throw invalidGrant('redirect_uri does not match the one of the authorization request.');
  if (code.codeChallenge) {
    if (!p.codeVerifier) throw invalidGrant('code_verifier is required (the authorization request used PKCE).');
    const computed =
      code.codeChallengeMethod === 'plain'
        ? p.codeVerifier
        : createHash('sha256').update(p.codeVerifier).digest('base64url');
    if (computed !== code.codeChallenge) throw invalidGrant('code_verifier does not match the code_challenge.');
  }
  for (const userId of code.userIds)
    if (state.users.get(userId)?.revoked) throw invalidGrant('The account has been deauthorized.');
  return code;
}

/** An access token the platform's API recognises for the user until it expires. */
export function issueAccessToken(
  state: SandboxState,
  userId: string,
  ttlSec: number,
): { token: string; expiresIn: number | null } {
  const expiresAt = expiry(state, ttlSec);
  const token = state.users.issueToken(userId, expiresAt ?? undefined);
  const user = state.users.get(userId)!;
  log(state, {
    platform: user.platform,
    kind: 'access',
    token,
    userId,
    expiresAt: expiresAt ? new Date(expiresAt).toISOString() : null,
  });
  return { token, expiresIn: expiresAt ? ttlSec : null };
}

export function issueRefreshToken(
  state: SandboxState,
  platform: Platform,
  clientId: string,
  userId: string,
  scopes?: string[],
): RefreshGrant {
  const ttl = state.oauth.settings[platform].refreshTokenTtlSec;
  const grant: RefreshGrant = {
    token: state.ids.token(platform === 'tiktok' ? 'rft.' : '1//'),
    platform,
    clientId,
    userId,
    expiresAt: expiry(state, ttl),
    active: true,
    scopes,
  };
  state.oauth.refreshTokens.set(grant.token, grant);
  log(state, {
    platform,
    kind: 'refresh',
    token: grant.token,
    userId,
    expiresAt: grant.expiresAt ? new Date(grant.expiresAt).toISOString() : null,
  });
  return grant;
}

/** Checks a refresh token: known, for this platform and client, not rotated away, unexpired, its user not revoked. */
export function checkRefreshToken(
  state: SandboxState,
  platform: Platform,
  token: string | undefined,
  clientId: string | undefined,
): RefreshGrant {
  if (!token) throw invalidRequest('refresh_token is required');
  const grant = state.oauth.refreshTokens.get(token);
  if (!grant || grant.platform !== platform) throw invalidGrant('Refresh token is invalid.');
  if (grant.clientId !== clientId) throw invalidGrant('Refresh token was issued to another client.');
  if (!grant.active) throw invalidGrant('Refresh token has been replaced by a newer one.');
  if (grant.expiresAt !== null && grant.expiresAt <= state.now()) throw invalidGrant('Refresh token has expired.');
  if (state.users.get(grant.userId)?.revoked) throw invalidGrant('Token has been expired or revoked.');
  return grant;
}

export function issueFacebookUserToken(
  state: SandboxState,
  clientId: string,
  personId: string,
  pageIds: string[],
  ttlSec: number,
): { token: string; expiresIn: number } {
  const token = state.ids.token('EAAU');
  const expiresAt = state.now() + ttlSec * 1000;
  state.oauth.facebookTokens.set(token, { token, clientId, personId, pageIds, expiresAt });
  log(state, { platform: 'facebook', kind: 'user', token, userId: null, expiresAt: new Date(expiresAt).toISOString() });
  return { token, expiresIn: ttlSec };
}
