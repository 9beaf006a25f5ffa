/** What the emulated LinkedIn takes, from the official pages (links beside each check in routes.ts). */
export interface LinkedInSandboxLimits {
  /** Posts API commentary: 3,000 characters. */
  commentaryMax: number;
  /** MultiImage: 2 to 20 images. */
  multiImageMax: number;
  /** Images API: at most 36,152,320 pixels; the sandbox bounds bytes instead. */
  imageMaxBytes: number;
  /** Videos API: 75 KB to 500 MB. */
  videoMinBytes: number;
  videoMaxBytes: number;
  /** Videos API: each upload part is 4 MiB (4,194,304 bytes), the last one the rest. */
  videoPartBytes: number;
  /** Documents API: at most 100 MB. */
  documentMaxBytes: number;
  /** How long an uploaded asset stays PROCESSING. */
  processingMs: number;
  /** Uploads end PROCESSING_FAILED (a file LinkedIn cannot read). */
  processingFails: boolean;
  /** LinkedIn-Version values served: the newest month and how many months back. */
  newestVersion: string;
  versionsServed: number;
}

export const DEFAULT_LINKEDIN_SANDBOX_LIMITS: LinkedInSandboxLimits = {
  commentaryMax: 3000,
  multiImageMax: 20,
  imageMaxBytes: 36_152_320,
  videoMinBytes: 75 * 1024,
  videoMaxBytes: 500 * 1024 * 1024,
  videoPartBytes: 4_194_304,
  documentMaxBytes: 100 * 1024 * 1024,
  processingMs: 0,
  processingFails: false,
  newestVersion: '202611',
  versionsServed: 12,
};

export type LinkedInAssetKind = 'image' | 'video' | 'document';

export interface LinkedInAsset {
  urn: string;
  kind: LinkedInAssetKind;
  owner: string;
  /** The member whose token registered it. */
  userId: string;
  /** Videos: the size declared at initializeUpload. */
  declaredBytes: number | null;
  /** The parts and their upload URLs' tokens, by index; received bytes and the ETag answered. */
  parts: { firstByte: number; lastByte: number; key: string; bytes: number | null; etag: string | null }[];
  uploadToken: string;
  contentType: string | null;
  status: 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE' | 'PROCESSING_FAILED';
  availableAt: number | null;
  /** The post that uses it: an asset is used once. */
  postUrn: string | null;
}

export interface LinkedInPostRecord {
  urn: string;
  author: string;
  userId: string;
  commentary: string;
  visibility: string;
  content: Record<string, unknown> | null;
  createdAt: number;
  /** Deleted by its author: no longer read, yet its content is still refused as a duplicate. */
  deletedAt?: number;
}

export interface LinkedInOrganization {
  id: string;
  name: string;
  vanityName: string;
  /** Member id → role (ADMINISTRATOR, CONTENT_ADMIN, DIRECT_SPONSORED_CONTENT_POSTER, ANALYST…). */
  roles: Map<string, string>;
}

export class LinkedInStore {
  limits: LinkedInSandboxLimits;
  readonly assets = new Map<string, LinkedInAsset>();
  readonly posts = new Map<string, LinkedInPostRecord>();
  readonly organizations = new Map<string, LinkedInOrganization>();
  private readonly initial: LinkedInSandboxLimits;

  constructor(limits: Partial<LinkedInSandboxLimits> = {}) {
    this.initial = { ...DEFAULT_LINKEDIN_SANDBOX_LIMITS, ...limits };
    this.limits = { ...this.initial };
  }

  /** The asset a part's upload key belongs to, with the part's index. */
  partOf(key: string): { asset: LinkedInAsset; index: number } | undefined {
    for (const asset of this.assets.values()) {
      const index = asset.parts.findIndex((p) => p.key === key);
      if (index >= 0) return { asset, index };
    }
    return undefined;
  }

  /** A post of this author with the same commentary and content: LinkedIn refuses it as a duplicate. */
  duplicateOf(
    author: string,
    commentary: string,
    content: Record<string, unknown> | null,
  ): LinkedInPostRecord | undefined {
    const same = JSON.stringify(content);
    return [...this.posts.values()].find(
      (p) => p.author === author && p.commentary === commentary && JSON.stringify(p.content) === same,
    );
  }

  clear(): void {
    this.assets.clear();
    this.posts.clear();
    this.organizations.clear();
    this.limits = { ...this.initial };
  }
}
