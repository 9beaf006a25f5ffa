import type { Platform } from '@postbus/contracts';
import type { MediaAccess, MediaFetchOptions } from '@postbus/platforms';

/** Where each platform lives and how uploads are cut; from the publisher's config. */
export interface AdapterConfig {
  threadsApiUrl: string;
  instagramApiUrl: string;
  facebookApiUrl: string;
  tiktokApiUrl: string;
  youtubeUploadUrl: string;
  /** Deadline of each platform call (uploads get their own). */
  requestTimeoutMs: number;
  uploadTimeoutMs: number;
  tiktokChunkBytes: number;
  /** Media URLs under these prefixes are pulled by TikTok (PULL_FROM_URL); others are uploaded (FILE_UPLOAD). */
  tiktokPullPrefixes: string[];
  youtubeChunkBytes: number;
  youtubeDefaultPrivacy: 'public' | 'unlisted' | 'private';
  /** The YouTube Data API (videos.list), where an upload's status is read back when its answer did not carry it. */
  youtubeApiUrl: string;
  /** Whether the API project passed YouTube's audit (until then uploads stay private). */
  youtubeProjectAudited: boolean;
  /** What a video YouTube kept private against the asked privacy does to the post. */
  youtubePrivateLock: 'warn' | 'fail';
  /** How long a live public TikTok post waits for its post id before it is marked posted without one. */
  tiktokPostIdWaitMs: number;
  /** The Bluesky PDS (or entryway) posts are written to. */
  blueskyServiceUrl: string;
  /** Mastodon instances' base URL, `{instance}` standing for the profile's host (`https://{instance}`; the sandbox's under SANDBOX_URL). */
  mastodonInstanceUrl: string;
  /** LinkedIn's API host (`https://api.linkedin.com`; the sandbox's under SANDBOX_URL) and the LinkedIn-Version its /rest calls carry. */
  linkedinApiUrl: string;
  linkedinApiVersion: string;
  /** Pinterest API v5 base URL (`https://api.pinterest.com`; the sandbox's under SANDBOX_URL). */
  pinterestApiUrl: string;
  /** The X API v2 (`https://api.x.com`; the sandbox's under SANDBOX_URL). */
  xApiUrl: string;
  /** Which media links the publisher itself reads (kind detection, uploads): through @postbus/net, our own file links trusted. */
  mediaAccess: MediaAccess;
}

/** How one platform's adapter reads the post's media: through the configured access, each wait bounded like a platform call. */
export function mediaOptions(cfg: AdapterConfig, platform: Platform): MediaFetchOptions {
  return { platform, access: cfg.mediaAccess, timeoutMs: cfg.requestTimeoutMs };
}

/** `platformMeta[platform]` as a plain object (the contract allows any members). */
export function metaFor(platformMeta: Record<string, unknown> | null, platform: string): Record<string, unknown> {
  const value = platformMeta?.[platform];
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function withoutPhase<T extends Record<string, unknown>>(checkpoint: T): Omit<T, 'phase'> {
  const { phase: _phase, ...rest } = checkpoint;
  return rest;
}
