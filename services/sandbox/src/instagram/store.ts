export const INSTAGRAM_MEDIA_TYPES = ['IMAGE', 'VIDEO', 'REELS', 'STORIES', 'CAROUSEL'] as const;
export type InstagramMediaType = (typeof INSTAGRAM_MEDIA_TYPES)[number];

export interface InstagramLimits {
  /** Posts per account per rolling window, enforced on media_publish (guide: 100; older docs 50 or 25). */
  quotaTotal: number;
  quotaDurationS: number;
  /** A container not published within this time is EXPIRED (24 h). */
  containerTtlMs: number;
  /** Carousel children (2–10; one 2026 source says 20). */
  carouselMin: number;
  carouselMax: number;
  captionMax: number;
  hashtagMax: number;
  mentionMax: number;
  /** Duration the sandbox pretends every video has, so thumb_offset can be checked. */
  videoDurationMs: number;
}

export const DEFAULT_INSTAGRAM_LIMITS: InstagramLimits = {
  quotaTotal: 100,
  quotaDurationS: 86_400,
  containerTtlMs: 24 * 3_600_000,
  carouselMin: 2,
  carouselMax: 10,
  captionMax: 2200,
  hashtagMax: 30,
  mentionMax: 20,
  videoDurationMs: 30_000,
};

export interface InstagramContainer {
  id: string;
  userId: string;
  mediaType: InstagramMediaType;
  caption: string;
  mediaUrl: string | null;
  isVideo: boolean;
  coverUrl: string | null;
  thumbOffsetMs: number | null;
  shareToFeed: boolean | null;
  isCarouselItem: boolean;
  children: string[];
  createdAt: number;
  /** `code/subcode` the container reports once processing ends, for media the sandbox "fails to process". */
  processingError: string | null;
  /** The video is being read (reel inspection): the container stays IN_PROGRESS until it is judged. */
  inspecting?: boolean;
  publishedMediaId: string | null;
}

export interface InstagramMedia {
  id: string;
  userId: string;
  username: string;
  containerId: string;
  mediaType: InstagramMediaType;
  productType: 'FEED' | 'REELS' | 'STORY';
  caption: string;
  mediaUrls: string[];
  shortcode: string;
  permalink: string;
  publishedAt: number;
}

/** Instagram objects: containers and published media by id. */
export class InstagramStore {
  readonly limits: InstagramLimits;
  readonly containers = new Map<string, InstagramContainer>();
  readonly media = new Map<string, InstagramMedia>();

  constructor(limits: Partial<InstagramLimits> = {}) {
    this.limits = { ...DEFAULT_INSTAGRAM_LIMITS, ...limits };
  }

  /** Posts the account published within the rolling window ending now (a carousel counts once). */
  publishedInWindow(userId: string, now: number): number {
    const since = now - this.limits.quotaDurationS * 1000;
    let count = 0;
    for (const media of this.media.values()) if (media.userId === userId && media.publishedAt > since) count++;
    return count;
  }

  clear(): void {
    this.containers.clear();
    this.media.clear();
  }
}
