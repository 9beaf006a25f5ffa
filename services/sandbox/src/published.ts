import type { Platform } from '@postbus/contracts';

/** One post that went live on an emulated platform: what tests count and inspect. */
export interface PublishedItem {
  platform: Platform;
  /** The platform's media/post id, as answered to the publish call. */
  id: string;
  userId: string;
  handle: string;
  text: string;
  mediaUrls: string[];
  mediaType: string;
  /** The container (or upload) it was published from. */
  containerId: string | null;
  permalink: string;
  createdAt: string;
  /** TikTok photo posts and YouTube videos carry a title apart from the text. */
  title?: string | null;
  /** Bytes uploaded, when the platform received the file itself rather than a link. */
  bytes?: number;
  /** Platform-specific settings the post was published with (privacy, cover, link…). */
  details?: Record<string, unknown>;
}

export class PublishedLog {
  private items: PublishedItem[] = [];

  record(item: PublishedItem): PublishedItem {
    this.items.push(item);
    return item;
  }

  list(filter: { platform?: Platform; userId?: string } = {}): PublishedItem[] {
    return this.items.filter(
      (item) =>
        (!filter.platform || item.platform === filter.platform) && (!filter.userId || item.userId === filter.userId),
    );
  }

  clear(): void {
    this.items = [];
  }
}
