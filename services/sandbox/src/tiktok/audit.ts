import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import { TikTokError } from './http';

const DAY_MS = 24 * 3_600_000;

/**
 * What TikTok imposes on a client that has not passed the content-posting audit
 * (developers.tiktok.com/doc/content-sharing-guidelines): direct posts are SELF_ONLY, the account
 * must be private when it posts, and at most `usersPerDay` distinct users may post through the
 * client in 24 hours. `unaudited: false` (an audited client) lifts all three.
 */
export interface TikTokAudit {
  unaudited: boolean;
  usersPerDay: number;
}

export const DEFAULT_TIKTOK_AUDIT: TikTokAudit = { unaudited: true, usersPerDay: 5 };

/** Refuses a direct post the way TikTok refuses it at init for an unaudited client. */
export function checkUnauditedPost(state: SandboxState, user: SandboxUser, privacy: string): void {
  const audit = state.tiktok.audit;
  if (!audit.unaudited) return;
  if (privacy !== 'SELF_ONLY' || !user.privateAccount) {
    throw new TikTokError(
      403,
      'unaudited_client_can_only_post_to_private_accounts',
      'Unaudited clients can only post to private accounts with SELF_ONLY visibility.',
    );
  }
  const posters = state.tiktok.postersSince(state.now() - DAY_MS);
  if (!posters.has(user.userId) && posters.size >= audit.usersPerDay) {
    throw new TikTokError(
      403,
      'reached_active_user_cap',
      `This unaudited client has reached its cap of ${audit.usersPerDay} users posting in 24 hours.`,
    );
  }
}

/** Counts the user among the day's posters once a direct post was accepted. */
export function recordPoster(state: SandboxState, user: SandboxUser): void {
  if (state.tiktok.audit.unaudited) state.tiktok.recordPoster(user.userId, state.now());
}
