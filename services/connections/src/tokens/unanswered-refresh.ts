import { PLATFORM_NAMES, isPlatformError, type PlatformOAuthClient } from '@postbus/platforms';
import type { Platform } from '@postbus/contracts';

/**
 * TikTok rotates refresh tokens: "the previous refresh token stops working once a new one is
 * issued" (https://developers.tiktok.com/doc/oauth-user-access-token-management). A refresh that
 * timed out or lost its connection after sending may have rotated the token with the new one lost
 * in the answer; sending the old one again at once would only get `invalid_grant`. So such a
 * refresh is not retried in the same call; the attempt is remembered, and the next refresh (the
 * next demand or the periodic job) tries the stored token once more: it still works when the lost
 * request never reached TikTok. If TikTok refuses it then, the token was rotated away by the lost
 * answer, not revoked by the person: the profile still needs reconnecting (no token is left to
 * refresh with), but with its own reason and an error-level log for the operator.
 */
export function mayRetryRefresh(client: Pick<PlatformOAuthClient, 'rotatesRefreshToken'>, err: unknown): boolean {
  return isPlatformError(err) && err.transient && !refreshMayHaveRotated(client, err);
}

/** A failed refresh that may have reached a platform that rotates refresh tokens. */
export function refreshMayHaveRotated(client: Pick<PlatformOAuthClient, 'rotatesRefreshToken'>, err: unknown): boolean {
  return !!client.rotatesRefreshToken && isPlatformError(err) && err.outcomeUnknown;
}

/** Why the profile needs reconnecting when the refusal follows an unanswered refresh. */
export function lostRotationReason(platform: Platform, unansweredAt: Date): string {
  const name = PLATFORM_NAMES[platform];
  return `${name} no longer accepts the stored refresh token: a refresh at ${unansweredAt.toISOString()} reached ${name} but its answer was lost, and ${name} replaces the refresh token on every refresh. The account did not revoke access; reconnect the profile to get a new token.`;
}
