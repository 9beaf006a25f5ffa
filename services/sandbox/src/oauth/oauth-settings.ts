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
  /**
   * The scopes the app may ask for (approved in App Review or the audit, or listed on the consent
   * screen); the authorize step refuses any other with `invalid_scope`. null: any scope.
   */
  approvedScopes: string[] | null;
  /**
   * Instagram and Threads refresh only a token at least this old (24 h: developers.facebook.com/docs/
   * instagram-platform/reference/refresh_access_token, …/threads/get-started/long-lived-tokens); 0: any age.
   */
  refreshMinAgeSec: number;
}

/**
 * What an app that passed review would hold: the scopes Postbus's publishing, replies and insights
 * use. Facebook's `publish_video` is not among them (it belongs to the Live Video API).
 */
const APPROVED_SCOPES: Record<Platform, string[]> = {
  instagram: [
    'instagram_business_basic',
    'instagram_business_content_publish',
    'instagram_business_manage_comments',
    'instagram_business_manage_insights',
  ],
  facebook: [
    'pages_show_list',
    'pages_read_engagement',
    'pages_manage_posts',
    'pages_manage_engagement',
    'pages_read_user_engagement',
    'pages_manage_metadata',
    'read_insights',
  ],
  threads: [
    'threads_basic',
    'threads_content_publish',
    'threads_read_replies',
    'threads_manage_replies',
    'threads_manage_insights',
  ],
  tiktok: ['user.info.basic', 'user.info.profile', 'user.info.stats', 'video.publish', 'video.upload', 'video.list'],
  youtube: [
    'https://www.googleapis.com/auth/youtube.upload',
    'https://www.googleapis.com/auth/youtube.readonly',
    'https://www.googleapis.com/auth/youtube',
    'https://www.googleapis.com/auth/youtube.force-ssl',
    'openid',
    'email',
    'profile',
  ],
  // Bluesky sessions come from app passwords (src/bluesky), not from this OAuth emulator.
  bluesky: [],
  // Mastodon's OAuth is served per instance by src/mastodon, not by this emulator.
  mastodon: [],
  // Share on LinkedIn, Sign In with LinkedIn (OpenID Connect) and the Community Management organization scopes.
  linkedin: ['openid', 'profile', 'email', 'w_member_social', 'w_organization_social', 'r_organization_admin'],
  x: ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access'],
  pinterest: ['boards:read', 'boards:write', 'pins:read', 'pins:write', 'user_accounts:read'],
};

const DAY_SEC = 86_400;

const META = {
  shortTokenTtlSec: 3600,
  accessTokenTtlSec: 5_183_944,
  refreshTokenTtlSec: null,
  rotateRefreshTokens: false,
  issueRefreshToken: false,
  refreshMinAgeSec: DAY_SEC,
};

export const DEFAULT_OAUTH_SETTINGS: Record<Platform, OAuthPlatformSettings> = {
  instagram: { ...META, approvedScopes: APPROVED_SCOPES.instagram },
  threads: { ...META, approvedScopes: APPROVED_SCOPES.threads },
  facebook: { ...META, shortTokenTtlSec: 5400, refreshMinAgeSec: 0, approvedScopes: APPROVED_SCOPES.facebook },
  // Newest TikTok docs: access 2 h, refresh 180 days, rotated on each refresh.
  tiktok: {
    shortTokenTtlSec: 0,
    accessTokenTtlSec: 7200,
    refreshTokenTtlSec: 15_552_000,
    rotateRefreshTokens: true,
    issueRefreshToken: true,
    refreshMinAgeSec: 0,
    approvedScopes: APPROVED_SCOPES.tiktok,
  },
  youtube: {
    shortTokenTtlSec: 0,
    accessTokenTtlSec: 3599,
    refreshTokenTtlSec: null,
    rotateRefreshTokens: false,
    issueRefreshToken: true,
    refreshMinAgeSec: 0,
    approvedScopes: APPROVED_SCOPES.youtube,
  },
  // Not served through OAuth: the Bluesky emulator's sessions last as a PDS's do (access 2 h, refresh 90 days, rotated).
  bluesky: {
    shortTokenTtlSec: 0,
    accessTokenTtlSec: 7200,
    refreshTokenTtlSec: 90 * DAY_SEC,
    rotateRefreshTokens: true,
    issueRefreshToken: true,
    refreshMinAgeSec: 0,
    approvedScopes: APPROVED_SCOPES.bluesky,
  },
  // Not served through this emulator: Mastodon tokens do not expire unless revoked.
  mastodon: {
    shortTokenTtlSec: 0,
    accessTokenTtlSec: 0,
    refreshTokenTtlSec: null,
    rotateRefreshTokens: false,
    issueRefreshToken: false,
    refreshMinAgeSec: 0,
    approvedScopes: APPROVED_SCOPES.mastodon,
  },
  // Access tokens last 60 days, refresh tokens (approved partners only) 365 days and are not rotated:
  // https://learn.microsoft.com/en-us/linkedin/shared/authentication/programmatic-refresh-tokens
  linkedin: {
    shortTokenTtlSec: 0,
    accessTokenTtlSec: 60 * DAY_SEC,
    refreshTokenTtlSec: 365 * DAY_SEC,
    rotateRefreshTokens: false,
    issueRefreshToken: true,
    refreshMinAgeSec: 0,
    approvedScopes: APPROVED_SCOPES.linkedin,
  },
  // Access tokens last 2 hours; with offline.access a refresh token is issued, replaced on every refresh:
  // https://docs.x.com/fundamentals/authentication/oauth-2-0/authorization-code
  x: {
    shortTokenTtlSec: 0,
    accessTokenTtlSec: 7200,
    refreshTokenTtlSec: null,
    rotateRefreshTokens: true,
    issueRefreshToken: true,
    refreshMinAgeSec: 0,
    approvedScopes: APPROVED_SCOPES.x,
  },
  // Access tokens last 30 days; with continuous refresh every refresh answers a new refresh token of 60 days:
  // https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/
  pinterest: {
    shortTokenTtlSec: 0,
    accessTokenTtlSec: 30 * DAY_SEC,
    refreshTokenTtlSec: 60 * DAY_SEC,
    rotateRefreshTokens: false,
    issueRefreshToken: true,
    refreshMinAgeSec: 0,
    approvedScopes: APPROVED_SCOPES.pinterest,
  },
};
