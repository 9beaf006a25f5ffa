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
};

/** Scopes whose grant also covers a needed one (Google's broader YouTube scopes include uploading). */
const COVERED_BY: Record<string, readonly string[]> = {
  'https://www.googleapis.com/auth/youtube.upload': ['https://www.googleapis.com/auth/youtube', 'https://www.googleapis.com/auth/youtube.force-ssl', 'https://www.googleapis.com/auth/youtubepartner'],
};

/** The publishing scopes `granted` lacks. */
export function missingPublishingScopes(platform: Platform, granted: readonly string[]): string[] {
  const have = new Set(granted);
  return PUBLISHING_SCOPES[platform].filter((s) => !have.has(s) && !(COVERED_BY[s] ?? []).some((c) => have.has(c)));
}
