import type { Platform } from '@postbus/contracts';
import { invalidParameter, invalidToken, missingToken, revokedToken } from '../meta/graph-error';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import { issueAccessToken } from './tokens';

/** The user an Instagram or Threads token belongs to, or Meta's 2500 / 190 / 190-460 errors. */
export function userOfToken(state: SandboxState, platform: Platform, token: string | undefined): SandboxUser {
  if (!token) throw missingToken();
  const user = state.users.byAccessToken(platform, token);
  if (!user) throw invalidToken();
  if (user.revoked) throw revokedToken();
  return user;
}

/**
 * `GET /access_token?grant_type=<ig|th>_exchange_token&client_secret&access_token` (a short-lived token
 * for a long-lived one) and `GET /refresh_access_token?grant_type=<ig|th>_refresh_token&access_token`
 * (a valid long-lived token for a fresh one; the old one stays valid until it expires).
 */
export function longLivedToken(
  state: SandboxState,
  platform: 'instagram' | 'threads',
  kind: 'exchange' | 'refresh',
  p: Record<string, string>,
) {
  const prefix = platform === 'instagram' ? 'ig' : 'th';
  const grantType = kind === 'exchange' ? `${prefix}_exchange_token` : `${prefix}_refresh_token`;
  if (p.grant_type !== grantType) throw invalidParameter(`grant_type must be ${grantType}`);
  if (kind === 'exchange' && !p.client_secret) throw invalidParameter('client_secret is required');
  const user = userOfToken(state, platform, p.access_token);
  if (kind === 'refresh') checkRefreshAge(state, platform, p.access_token);
  const { token, expiresIn } = issueAccessToken(state, user.userId, state.oauth.settings[platform].accessTokenTtlSec);
  return { access_token: token, token_type: 'bearer', expires_in: expiresIn ?? undefined };
}

/**
 * Instagram and Threads refresh a long-lived token only once it is at least 24 hours old
 * (`refreshMinAgeSec`). Meta does not document the exact error; the sandbox answers a
 * non-transient invalid-parameter error, which a client must not take for a revoked token.
 */
function checkRefreshAge(state: SandboxState, platform: Platform, token: string): void {
  const minAgeMs = state.oauth.settings[platform].refreshMinAgeSec * 1000;
  const issuedAt = state.users.issuedAt(token) ?? 0;
  if (state.now() - issuedAt < minAgeMs) {
    throw invalidParameter(
      `The access token cannot be refreshed yet: only tokens at least ${minAgeMs / 3_600_000} hours old can be refreshed.`,
    );
  }
}
