export interface FacebookLimits {
  /** Reels a Page may publish through the API per rolling 24 h. */
  reelsPer24h: number;
  /** Unpublished photos one feed post may attach. */
  attachedMediaMax: number;
}

export const DEFAULT_FACEBOOK_LIMITS: FacebookLimits = { reelsPer24h: 30, attachedMediaMax: 30 };

export interface FacebookPost {
  id: string;
  pageId: string;
  message: string;
  link: string | null;
  attachedPhotoIds: string[];
  publishedAt: number;
  permalink: string;
}

export interface FacebookPhoto {
  id: string;
  pageId: string;
  url: string;
  caption: string;
  published: boolean;
  postId: string | null;
  attachedTo: string | null;
}

export interface FacebookVideo {
  id: string;
  pageId: string;
  kind: 'video' | 'reel';
  title: string;
  description: string;
  fileUrl: string | null;
  fileSize: number | null;
  bytesReceived: number;
  createdAt: number;
  uploadCompletedAt: number | null;
  /** The media "fails to process" (its URL contains `fail-processing`). */
  processingError: boolean;
  /** Why processing failed, when the uploaded bytes break the reels requirements. */
  processingMessage?: string;
  /** The uploaded bytes start like a video file and are kept to be read once complete. */
  spooled?: boolean;
  /** The uploaded bytes are being read: processing stays in_progress until they are judged. */
  inspecting?: boolean;
  publishRequestedAt: number | null;
  permalink: string;
  /** The custom thumbnail sent as `thumb`, as Facebook read it. */
  thumb?: { contentType: string; size: number };
}

/** Facebook Page objects by id: feed posts, photos, videos and reels. */
export class FacebookStore {
  readonly limits: FacebookLimits;
  readonly posts = new Map<string, FacebookPost>();
  readonly photos = new Map<string, FacebookPhoto>();
  readonly videos = new Map<string, FacebookVideo>();

  constructor(limits: Partial<FacebookLimits> = {}) {
    this.limits = { ...DEFAULT_FACEBOOK_LIMITS, ...limits };
  }

  reelsInWindow(pageId: string, now: number): number {
    let count = 0;
    for (const v of this.videos.values())
      if (
        v.pageId === pageId &&
        v.kind === 'reel' &&
        v.publishRequestedAt !== null &&
        v.publishRequestedAt > now - 86_400_000
      )
        count++;
    return count;
  }

  clear(): void {
    this.posts.clear();
    this.photos.clear();
    this.videos.clear();
  }
}
