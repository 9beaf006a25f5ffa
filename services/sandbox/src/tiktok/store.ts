export const TIKTOK_PRIVACY_LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'] as const;

export interface TikTokLimits {
  /** An unaudited client may only post SELF_ONLY (creator_info offers nothing else). */
  unaudited: boolean;
  privacyLevelOptions: string[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  maxVideoPostDurationSec: number;
  /** FILE_UPLOAD chunk rules (4.3): 5–64 MB chunks, the last up to 128 MB, at most 1000; a file under the minimum goes whole. */
  minChunkBytes: number;
  maxChunkBytes: number;
  maxLastChunkBytes: number;
  maxChunks: number;
  /** Requests per access token per rolling minute (429 rate_limit_exceeded beyond). */
  rpm: { creatorInfo: number; init: number; status: number };
  /** URL prefixes verified for PULL_FROM_URL; null accepts every URL. */
  verifiedUrlPrefixes: string[] | null;
  videoTitleMax: number;
  photoTitleMax: number;
  photoDescriptionMax: number;
  photoMax: number;
}

export const DEFAULT_TIKTOK_LIMITS: TikTokLimits = {
  unaudited: false,
  privacyLevelOptions: [...TIKTOK_PRIVACY_LEVELS],
  commentDisabled: false,
  duetDisabled: false,
  stitchDisabled: false,
  maxVideoPostDurationSec: 600,
  minChunkBytes: 5 * 1024 * 1024,
  maxChunkBytes: 64 * 1024 * 1024,
  maxLastChunkBytes: 128 * 1024 * 1024,
  maxChunks: 1000,
  rpm: { creatorInfo: 20, init: 6, status: 30 },
  verifiedUrlPrefixes: null,
  videoTitleMax: 2200,
  photoTitleMax: 90,
  photoDescriptionMax: 4000,
  photoMax: 35,
};

export interface TikTokPublish {
  publishId: string;
  userId: string;
  kind: 'video' | 'photo';
  source: 'FILE_UPLOAD' | 'PULL_FROM_URL';
  postInfo: Record<string, unknown>;
  mediaUrls: string[];
  videoSize: number;
  chunkSize: number;
  totalChunks: number;
  bytesReceived: number;
  chunksReceived: number;
  uploadId: string;
  uploadToken: string;
  createdAt: number;
  /** When the post was handed to publishing: init for PULL_FROM_URL, the last chunk for FILE_UPLOAD. */
  committedAt: number | null;
  failReason: string | null;
  postId: string | null;
}

/** TikTok publishes by publish_id, plus the per-token request windows. */
export class TikTokStore {
  readonly limits: TikTokLimits;
  readonly publishes = new Map<string, TikTokPublish>();
  readonly byUploadId = new Map<string, TikTokPublish>();
  private readonly windows = new Map<string, number[]>();

  constructor(limits: Partial<TikTokLimits> = {}) {
    this.limits = { ...DEFAULT_TIKTOK_LIMITS, ...limits, rpm: { ...DEFAULT_TIKTOK_LIMITS.rpm, ...limits.rpm } };
  }

  /** Counts a call in the token's sliding minute; false when it is over `limit`. */
  allow(token: string, bucket: string, limit: number, now: number): boolean {
    const key = `${bucket}:${token}`;
    const recent = (this.windows.get(key) ?? []).filter((t) => t > now - 60_000);
    if (recent.length >= limit) {
      this.windows.set(key, recent);
      return false;
    }
    recent.push(now);
    this.windows.set(key, recent);
    return true;
  }

  clear(): void {
    this.publishes.clear();
    this.byUploadId.clear();
    this.windows.clear();
  }
}
