import { DEFAULT_TIKTOK_AUDIT, type TikTokAudit } from './audit';
export const TIKTOK_PRIVACY_LEVELS = [
  'PUBLIC_TO_EVERYONE',
  'MUTUAL_FOLLOW_FRIENDS',
  'FOLLOWER_OF_CREATOR',
  'SELF_ONLY',
] as const;

/** Where Postbus serves stored media in development (PUBLIC_BASE_URL's default, `/files/`): what its TikTok app would have verified. */
export const DEFAULT_VERIFIED_URL_PREFIXES = ['http://localhost:3000/files/', 'http://127.0.0.1:3000/files/'];

export interface TikTokLimits {
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
  /**
   * URL prefixes verified for PULL_FROM_URL (videos and photos); others fail with
   * url_ownership_unverified. null accepts every URL (a relaxed sandbox, not TikTok).
   */
  verifiedUrlPrefixes: string[] | null;
  videoTitleMax: number;
  photoTitleMax: number;
  photoDescriptionMax: number;
  photoMax: number;
  /**
   * Status checks of a published public post that still answer no post id, as while TikTok's
   * moderation runs ("usually within one minute … a few hours").
   */
  withholdPostIdPolls: number;
}

export const DEFAULT_TIKTOK_LIMITS: TikTokLimits = {
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
  verifiedUrlPrefixes: DEFAULT_VERIFIED_URL_PREFIXES,
  videoTitleMax: 2200,
  photoTitleMax: 90,
  photoDescriptionMax: 4000,
  photoMax: 35,
  withholdPostIdPolls: 1,
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
  /** Status checks that answered PUBLISH_COMPLETE without the post id so far. */
  withheldPolls: number;
}

/** TikTok publishes by publish_id, plus the per-token request windows and the client's audit state. */
export class TikTokStore {
  readonly limits: TikTokLimits;
  /** Unaudited by default, as every new TikTok app is; POST /__sandbox/tiktok/audit changes it. */
  audit: TikTokAudit;
  readonly publishes = new Map<string, TikTokPublish>();
  readonly byUploadId = new Map<string, TikTokPublish>();
  private readonly windows = new Map<string, number[]>();
  /** When each user last posted directly (the unaudited client's users-per-day cap). */
  private readonly posters = new Map<string, number>();
  private readonly initialAudit: TikTokAudit;
  private readonly initialPrefixes: string[] | null;

  constructor(limits: Partial<TikTokLimits> = {}, audit: Partial<TikTokAudit> = {}) {
    this.limits = { ...DEFAULT_TIKTOK_LIMITS, ...limits, rpm: { ...DEFAULT_TIKTOK_LIMITS.rpm, ...limits.rpm } };
    this.initialPrefixes = this.limits.verifiedUrlPrefixes;
    this.initialAudit = { ...DEFAULT_TIKTOK_AUDIT, ...audit };
    this.audit = { ...this.initialAudit };
  }

  /** Users who posted directly since `since` (epoch ms). */
  postersSince(since: number): Set<string> {
    return new Set([...this.posters].filter(([, at]) => at > since).map(([userId]) => userId));
  }

  recordPoster(userId: string, at: number): void {
    this.posters.set(userId, at);
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
    this.posters.clear();
    this.audit = { ...this.initialAudit };
    this.limits.verifiedUrlPrefixes = this.initialPrefixes;
  }
}
