/** A board of an emulated Pinterest account. */
export interface PinterestBoardRecord {
  id: string;
  userId: string;
  name: string;
  description: string;
  privacy: 'PUBLIC' | 'PROTECTED' | 'SECRET';
  sectionIds: string[];
  createdAt: string;
}

export interface PinterestPinRecord {
  id: string;
  userId: string;
  boardId: string;
  boardSectionId: string | null;
  title: string | null;
  description: string | null;
  link: string | null;
  altText: string | null;
  mediaSource: Record<string, unknown>;
  /** A trial-access app's pins are visible to their owner only. */
  visibleToOwnerOnly: boolean;
  createdAt: string;
}

/** A registered video upload (POST /v5/media): registered → processing (bytes received) → succeeded or failed. */
export interface PinterestMediaRecord {
  id: string;
  userId: string;
  status: 'registered' | 'processing' | 'succeeded' | 'failed';
  uploadParameters: Record<string, string>;
  bytes: number;
  /** When processing ends (epoch ms), once the bytes arrived. */
  readyAt: number | null;
}

export interface PinterestSandboxLimits {
  /** A trial-access app: pins are created, but only their owner sees them (https://developers.pinterest.com/docs/getting-started/using-the-api/#trial-access). */
  trialAccess: boolean;
  /** Largest video upload accepted, in bytes (Pinterest: 2 GB). */
  videoMaxBytes: number;
  /** Uploads end `failed` instead of `succeeded` (a video Pinterest cannot process). */
  failVideoProcessing: boolean;
}

export const DEFAULT_PINTEREST_LIMITS: PinterestSandboxLimits = {
  trialAccess: false,
  videoMaxBytes: 2 * 1024 * 1024 * 1024,
  failVideoProcessing: false,
};

/** The emulated Pinterest's boards, pins, media uploads and the scopes its OAuth tokens carry. */
export class PinterestStore {
  readonly boards = new Map<string, PinterestBoardRecord>();
  readonly pins = new Map<string, PinterestPinRecord>();
  readonly media = new Map<string, PinterestMediaRecord>();
  /** Scopes of tokens issued by the emulated OAuth server; control-API tokens hold every scope. */
  readonly tokenScopes = new Map<string, string[]>();
  limits: PinterestSandboxLimits;
  private readonly initial: PinterestSandboxLimits;

  constructor(limits: Partial<PinterestSandboxLimits> = {}) {
    this.initial = { ...DEFAULT_PINTEREST_LIMITS, ...limits };
    this.limits = { ...this.initial };
  }

  addBoard(
    userId: string,
    name: string,
    o: { id: string; now: number; description?: string; privacy?: PinterestBoardRecord['privacy']; sections?: number },
  ): PinterestBoardRecord {
    const board: PinterestBoardRecord = {
      id: o.id,
      userId,
      name,
      description: o.description ?? '',
      privacy: o.privacy ?? 'PUBLIC',
      sectionIds: Array.from({ length: o.sections ?? 0 }, (_v, i) => `${o.id}${i + 1}`),
      createdAt: new Date(o.now).toISOString(),
    };
    this.boards.set(board.id, board);
    return board;
  }

  boardsOf(userId: string): PinterestBoardRecord[] {
    return [...this.boards.values()].filter((b) => b.userId === userId);
  }

  clear(): void {
    this.boards.clear();
    this.pins.clear();
    this.media.clear();
    this.tokenScopes.clear();
    this.limits = { ...this.initial };
  }
}
