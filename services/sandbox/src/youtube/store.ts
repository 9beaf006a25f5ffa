import type { PublishedItem } from '../published';

export interface YouTubeLimits {
  /** `units`: videos.insert costs insertCost from dailyUnits (older docs: 1600 of 10,000); `buckets`: its own bucket of insertsPerDay (current docs). */
  quotaMode: 'units' | 'buckets';
  dailyUnits: number;
  insertCost: number;
  thumbnailCost: number;
  insertsPerDay: number;
  /** The channel's own uploads per rolling 24 h (400 uploadLimitExceeded beyond). */
  channelUploadsPer24h: number;
  maxThumbnailBytes: number;
  /** When set, each PUT stores at most this many bytes and 308 says so: clients must resume from `Range`. */
  maxStoredBytesPerRequest: number | null;
  /** Every chunk but the final one must be a multiple of this many bytes (262144, 256 KiB), else 400; null: any size. */
  chunkMultipleBytes: number | null;
  /**
   * The API project has not passed YouTube's audit: every upload asked public or unlisted comes back
   * private (https://developers.google.com/youtube/v3/docs/videos/insert). On by default, as for a new project.
   */
  unauditedProject: boolean;
}

export const DEFAULT_YOUTUBE_LIMITS: YouTubeLimits = {
  quotaMode: 'buckets',
  dailyUnits: 10_000,
  insertCost: 1600,
  thumbnailCost: 50,
  insertsPerDay: 100,
  channelUploadsPer24h: 100,
  maxThumbnailBytes: 2 * 1024 * 1024,
  maxStoredBytesPerRequest: null,
  chunkMultipleBytes: 262_144,
  unauditedProject: true,
};

export interface YouTubeUpload {
  uploadId: string;
  userId: string;
  snippet: Record<string, unknown>;
  status: Record<string, unknown>;
  size: number;
  contentType: string;
  received: number;
  videoId: string | null;
}

export interface YouTubeVideo {
  id: string;
  userId: string;
  resource: Record<string, unknown> & { status: Record<string, unknown> };
  /** Null for an upload YouTube rejected or failed: it never went live. */
  published: PublishedItem | null;
}

/** Upload sessions, videos, and the project's quota for the current Pacific day. */
export class YouTubeStore {
  readonly limits: YouTubeLimits;
  readonly uploads = new Map<string, YouTubeUpload>();
  readonly videos = new Map<string, YouTubeVideo>();
  private quota = { day: '', units: 0, inserts: 0 };
  private readonly channelUploads = new Map<string, number[]>();

  constructor(limits: Partial<YouTubeLimits> = {}) {
    this.limits = { ...DEFAULT_YOUTUBE_LIMITS, ...limits };
  }

  /** Charges a call to the project quota; false when the day's quota cannot cover it. */
  charge(kind: 'insert' | 'thumbnail', now: number): boolean {
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(now);
    if (this.quota.day !== day) this.quota = { day, units: 0, inserts: 0 };
    const l = this.limits;
    if (kind === 'insert' && l.quotaMode === 'buckets') {
      if (this.quota.inserts + 1 > l.insertsPerDay) return false;
      this.quota.inserts += 1;
      return true;
    }
    const cost = kind === 'insert' ? l.insertCost : l.thumbnailCost;
    if (this.quota.units + cost > l.dailyUnits) return false;
    this.quota.units += cost;
    return true;
  }

  /** Counts an upload against the channel's 24 h cap; false when it is reached. */
  channelUpload(userId: string, now: number): boolean {
    const recent = (this.channelUploads.get(userId) ?? []).filter((t) => t > now - 86_400_000);
    if (recent.length >= this.limits.channelUploadsPer24h) return false;
    recent.push(now);
    this.channelUploads.set(userId, recent);
    return true;
  }

  clear(): void {
    this.uploads.clear();
    this.videos.clear();
    this.channelUploads.clear();
    this.quota = { day: '', units: 0, inserts: 0 };
  }
}
