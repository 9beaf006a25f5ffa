import type { Platform } from '@postbus/contracts';

/** Token lifetimes and habits of one platform's OAuth server (platform-apis 6), changeable at run time. */
export interface OAuthPlatformSettings {
  /** Instagram, Threads, Facebook: lifetime of the short-lived token the code exchange answers. */
  shortTokenTtlSec: number;
  /** The access token clients keep: long-lived (Meta) or the access token (TikTok, Google). */
  accessTokenTtlSec: number;
  /** TikTok: refresh tokens expire; null never. */
  refreshTokenTtlSec: number | null;
  /** TikTok: every refresh answers a new refresh token and retires the old one. */
  rotateRefreshTokens: boolean;
  /** Whether the code exchange answers a refresh token (Google sends none when no new consent was given). */
  issueRefreshToken: boolean;
}

const META: OAuthPlatformSettings = { shortTokenTtlSec: 3600, accessTokenTtlSec: 5_183_944, refreshTokenTtlSec: null, rotateRefreshTokens: false, issueRefreshToken: false };

export const DEFAULT_OAUTH_SETTINGS: Record<Platform, OAuthPlatformSettings> = {
  instagram: META,
  threads: META,
  facebook: { ...META, shortTokenTtlSec: 5400 },
  // Newest TikTok docs: access 2 h, refresh 180 days, rotated on each refresh.
  tiktok: { shortTokenTtlSec: 0, accessTokenTtlSec: 7200, refreshTokenTtlSec: 15_552_000, rotateRefreshTokens: true, issueRefreshToken: true },
  youtube: { shortTokenTtlSec: 0, accessTokenTtlSec: 3599, refreshTokenTtlSec: null, rotateRefreshTokens: false, issueRefreshToken: true },
};
