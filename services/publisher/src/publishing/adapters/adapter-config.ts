/** Where each platform lives and how uploads are cut; from the publisher's config. */
export interface AdapterConfig {
  threadsApiUrl: string;
  instagramApiUrl: string;
  facebookApiUrl: string;
  facebookVideoApiUrl: string;
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
