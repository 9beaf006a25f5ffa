import type { Platform } from '@postbus/contracts';

/**
 * The scopes a profile must have granted for Postbus to publish to it; the others a connection
 * asks for (comments, insights) serve optional features. Each list follows the platform's
 * publishing reference:
 * - Instagram: developers.facebook.com/docs/instagram-platform/content-publishing
 * - Facebook: developers.facebook.com/docs/pages-api/posts (pages_manage_posts, pages_read_engagement, pages_show_list)
 * - Threads: developers.facebook.com/docs/threads/posts
 * - TikTok: developers.tiktok.com/doc/content-posting-api-reference-direct-post (video.publish)
 * - YouTube: developers.google.com/youtube/v3/docs/videos/insert (youtube.upload)
 */
export const PUBLISHING_SCOPES: Record<Platform, readonly string[]> = {
  instagram: ['instagram_business_basic', 'instagram_business_content_publish'],
  facebook: ['pages_show_list', 'pages_read_engagement', 'pages_manage_posts'],
  threads: ['threads_basic', 'threads_content_publish'],
  tiktok: ['user.info.basic', 'video.publish'],
  youtube: ['https://www.googleapis.com/auth/youtube.upload'],
  // An app password (or a session made with one) grants every repo write; there are no scopes to check.
  bluesky: [],
  // https://docs.joinmastodon.org/api/oauth-scopes/: statuses and media to post, the account to know who connected.
  mastodon: ['write:statuses', 'write:media'],
};

/** Scopes whose grant also covers a needed one (Google's broader YouTube scopes include uploading). */
const COVERED_BY: Record<string, readonly string[]> = {
  'https://www.googleapis.com/auth/youtube.upload': [
    'https://www.googleapis.com/auth/youtube',
    'https://www.googleapis.com/auth/youtube.force-ssl',
    'https://www.googleapis.com/auth/youtubepartner',
  ],
};

/**
 * Scopes first comments need beyond publishing, where the platform asks for one of its own:
 * YouTube's commentThreads.insert takes only youtube.force-ssl
 * (https://developers.google.com/youtube/v3/docs/commentThreads/insert).
 */
export const FIRST_COMMENT_SCOPES: Partial<Record<Platform, readonly string[]>> = {
  youtube: ['https://www.googleapis.com/auth/youtube.force-ssl'],
};

/** The first-comment scopes `granted` lacks (empty where the platform needs none beyond publishing). */
export function missingFirstCommentScopes(platform: Platform, granted: readonly string[]): string[] {
  return (FIRST_COMMENT_SCOPES[platform] ?? []).filter((s) => !granted.includes(s));
}

/** The publishing scopes `granted` lacks. */
export function missingPublishingScopes(platform: Platform, granted: readonly string[]): string[] {
  const have = new Set(granted);
  return PUBLISHING_SCOPES[platform].filter((s) => !have.has(s) && !(COVERED_BY[s] ?? []).some((c) => have.has(c)));
}
