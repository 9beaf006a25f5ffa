import { X_CHUNK_MAX_BYTES, X_GIF_MAX_BYTES, X_IMAGE_MAX_BYTES, X_VIDEO_MAX_BYTES } from '@postbus/platforms';

/** The emulated X API's limits (https://docs.x.com/x-api/media/quickstart/best-practices, https://docs.x.com/x-api/fundamentals/rate-limits). */
export interface XSandboxLimits {
  imageMaxBytes: number;
  gifMaxBytes: number;
  videoMaxBytes: number;
  chunkMaxBytes: number;
  /** How long a finalized video stays `in_progress`; 0: the platform's processingDelayMs. */
  videoProcessingMs: number;
  /** POST /2/tweets per user per 15 minutes. */
  postsPerWindow: number;
}

export const DEFAULT_X_SANDBOX_LIMITS: XSandboxLimits = {
  imageMaxBytes: X_IMAGE_MAX_BYTES,
  gifMaxBytes: X_GIF_MAX_BYTES,
  videoMaxBytes: X_VIDEO_MAX_BYTES,
  chunkMaxBytes: X_CHUNK_MAX_BYTES,
  videoProcessingMs: 0,
  postsPerWindow: 100,
};

export const X_WINDOW_MS = 15 * 60_000;

export interface XMediaRecord {
  id: string;
  userId: string;
  category: string;
  contentType: string;
  totalBytes: number;
  /** Bytes received per segment index (chunked uploads). */
  segments: Map<number, number>;
  finalized: boolean;
  readyAt: number;
  failed: string | null;
  usedBy: string | null;
}

export interface XPostRecord {
  id: string;
  userId: string;
  username: string;
  text: string;
  mediaIds: string[];
  inReplyTo: string | null;
  createdAt: string;
}

/** Posts, uploads, the scopes of OAuth tokens and each user's call window. */
export class XStore {
  readonly limits: XSandboxLimits;
  readonly posts = new Map<string, XPostRecord>();
  readonly media = new Map<string, XMediaRecord>();
  /** Scopes of a token the OAuth emulator issued; a sandbox user's own token has every scope. */
  readonly tokenScopes = new Map<string, string[]>();
  private readonly windows = new Map<string, { start: number; count: number }>();
  private seq = 1_860_000_000_000_000_000n;

  constructor(limits: Partial<XSandboxLimits> = {}) {
    this.limits = { ...DEFAULT_X_SANDBOX_LIMITS, ...limits };
  }

  /** A snowflake-like id, increasing. */
  nextId(): string {
    this.seq += 1_000_003n;
    return this.seq.toString();
  }

  /** Counts one call against the user's 15-minute window of this endpoint; the window's figures as X reports them. */
  count(key: string, limit: number, now: number): { limit: number; remaining: number; resetAt: number; over: boolean } {
    let w = this.windows.get(key);
    if (!w || now - w.start >= X_WINDOW_MS) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count += 1;
    return {
      limit,
      remaining: Math.max(0, limit - w.count),
      resetAt: Math.ceil((w.start + X_WINDOW_MS) / 1000),
      over: w.count > limit,
    };
  }

  clear(): void {
    this.posts.clear();
    this.media.clear();
    this.tokenScopes.clear();
    this.windows.clear();
  }
}
