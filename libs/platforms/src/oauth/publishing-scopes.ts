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
  // https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api#permissions: a member posts with
  // w_member_social; an organization's posts also need w_organization_social (checked per profile in health).
  linkedin: ['w_member_social'],
  // https://docs.x.com/fundamentals/authentication/oauth-2-0/authorization-code: POST /2/tweets needs tweet.read, tweet.write
  // and users.read; media uploads media.write.
  x: ['tweet.read', 'tweet.write', 'users.read', 'media.write'],
  // https://developers.pinterest.com/docs/api/v5/pins-create: pins:write to create, boards:read to list the boards a pin goes to.
  pinterest: ['boards:read', 'pins:write'],
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

/** The publishing scopes a profile needs: a LinkedIn organization (`urn:li:organization:…`) also needs w_organization_social. */
export function publishingScopesOf(platform: Platform, platformUserId?: string): readonly string[] {
  if (platform === 'linkedin' && platformUserId?.startsWith('urn:li:organization:'))
    return [...PUBLISHING_SCOPES.linkedin, 'w_organization_social'];
  return PUBLISHING_SCOPES[platform];
}

/** The publishing scopes `granted` lacks (for this profile, when its platform user id is given). */
export function missingPublishingScopes(
  platform: Platform,
  granted: readonly string[],
  platformUserId?: string,
): string[] {
  const have = new Set(granted);
  return publishingScopesOf(platform, platformUserId).filter(
    (s) => !have.has(s) && !(COVERED_BY[s] ?? []).some((c) => have.has(c)),
  );
}
