export const THREADS_MEDIA_TYPES = ['TEXT', 'IMAGE', 'VIDEO', 'CAROUSEL'] as const;
export type ThreadsMediaType = (typeof THREADS_MEDIA_TYPES)[number];

export interface ThreadsLimits {
  /** Posts per user per rolling window, enforced on threads_publish (Meta: 250). */
  quotaTotal: number;
  /** The rolling window in seconds (Meta: 86400). */
  quotaDurationS: number;
  /** Replies per window, reported by threads_publishing_limit only (Meta: 1000). */
  replyQuotaTotal: number;
  /** A container not published within this time is EXPIRED (Meta: 24 h). */
  containerTtlMs: number;
  /** Children of a carousel (2–20, unverified). */
  carouselMin: number;
  carouselMax: number;
  /** Links allowed in a post's text (Meta: 5, since 2025-12-22). */
  linkMax: number;
}

export const DEFAULT_THREADS_LIMITS: ThreadsLimits = {
  quotaTotal: 250,
  quotaDurationS: 86_400,
  replyQuotaTotal: 1000,
  containerTtlMs: 24 * 3_600_000,
  carouselMin: 2,
  carouselMax: 20,
  linkMax: 5,
};

export interface ThreadsContainer {
  id: string;
  userId: string;
  mediaType: ThreadsMediaType;
  text: string;
  mediaUrl: string | null;
  isCarouselItem: boolean;
  children: string[];
  createdAt: number;
  /** Set at creation for media the sandbox will "fail to process"; reported once processing ends. */
  processingError: string | null;
  publishedMediaId: string | null;
  /** A reply: the post or reply it answers (`reply_to_id`). */
  replyToId?: string | null;
}

export interface ThreadsMedia {
  id: string;
  userId: string;
  username: string;
  containerId: string;
  mediaType: ThreadsMediaType;
  text: string;
  mediaUrls: string[];
  shortcode: string;
  permalink: string;
  publishedAt: number;
  /** A reply: the post or reply it answers. */
  replyToId?: string | null;
}

/** Threads objects: containers by id, published media by id. */
export class ThreadsStore {
  readonly limits: ThreadsLimits;
  readonly containers = new Map<string, ThreadsContainer>();
  readonly media = new Map<string, ThreadsMedia>();

  constructor(limits: Partial<ThreadsLimits> = {}) {
    this.limits = { ...DEFAULT_THREADS_LIMITS, ...limits };
  }

  /** Posts (or, with `replies`, replies) the user published within the rolling quota window ending now (a carousel counts once). */
  publishedInWindow(userId: string, now: number, replies = false): number {
    const since = now - this.limits.quotaDurationS * 1000;
    let count = 0;
    for (const media of this.media.values())
      if (media.userId === userId && media.publishedAt > since && Boolean(media.replyToId) === replies) count++;
    return count;
  }

  clear(): void {
    this.containers.clear();
    this.media.clear();
  }
}
