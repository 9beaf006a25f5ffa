import { MASTODON_DEFAULT_LIMITS, type MastodonLimits } from '@postbus/platforms';
import type { MastodonMentionNotification } from './mentions';

/** The emulated instances' limits (every instance alike unless a test sets them) and how long media takes to process. */
export interface MastodonSandboxLimits extends MastodonLimits {
  /** How long an uploaded file stays `url: null` (processing); 0: the platform's processingDelayMs (ready at once when that is 0 too: 200 instead of 202). */
  mediaProcessingMs: number;
  /** How long an Idempotency-Key is remembered: Mastodon keeps it an hour. */
  idempotencyTtlMs: number;
}

export const DEFAULT_MASTODON_SANDBOX_LIMITS: MastodonSandboxLimits = {
  ...MASTODON_DEFAULT_LIMITS,
  mediaProcessingMs: 0,
  idempotencyTtlMs: 3_600_000,
};

/** The instance a sandbox user lives on: the part after `@` of its handle, else the default instance. */
export const DEFAULT_MASTODON_INSTANCE = 'mastodon.example';

export interface MastodonApp {
  instance: string;
  clientId: string;
  clientSecret: string;
  name: string;
  redirectUris: string[];
  scopes: string[];
}

export interface MastodonCode {
  instance: string;
  clientId: string;
  redirectUri: string;
  userId: string;
  scopes: string[];
  codeChallenge?: string;
  expiresAt: number;
}

export interface MastodonMedia {
  id: string;
  instance: string;
  userId: string;
  type: 'image' | 'video' | 'gifv' | 'unknown';
  contentType: string;
  size: number;
  description: string | null;
  /** The custom preview image sent as `thumbnail`, as the instance read it. */
  thumbnail?: { contentType: string; size: number } | null;
  readyAt: number;
  statusId: string | null;
}

export interface MastodonStatusRecord {
  id: string;
  instance: string;
  userId: string;
  username: string;
  text: string;
  spoilerText: string;
  visibility: string;
  language: string | null;
  sensitive: boolean;
  mediaIds: string[];
  poll: { options: string[]; expiresIn: number; multiple: boolean } | null;
  createdAt: string;
  /** The status this one answers (`in_reply_to_id`), and its author. */
  inReplyToId?: string | null;
  inReplyToAccountId?: string | null;
}

/** Apps, codes, tokens, media, statuses and idempotency keys of every emulated instance. */
export class MastodonStore {
  limits: MastodonSandboxLimits;
  readonly apps = new Map<string, MastodonApp>();
  readonly codes = new Map<string, MastodonCode>();
  /** OAuth-issued tokens: token → user and instance. */
  readonly tokens = new Map<string, { userId: string; instance: string; scopes: string[] }>();
  readonly media = new Map<string, MastodonMedia>();
  readonly statuses = new Map<string, MastodonStatusRecord>();
  /** `{instance} {userId} {key}` → the status the first request made, and when. */
  readonly idempotency = new Map<string, { statusId: string; at: number }>();
  /** Mention notifications per account (services/sandbox/src/mastodon/mentions.ts). */
  readonly notifications = new Map<string, MastodonMentionNotification>();
  private seq = 0;

  constructor(private readonly initial: Partial<MastodonSandboxLimits> = {}) {
    this.limits = { ...DEFAULT_MASTODON_SANDBOX_LIMITS, ...initial };
  }

  /** Snowflake-like ids: increasing, numeric strings, as Mastodon's are. */
  nextId(now: number): string {
    this.seq = (this.seq + 1) % 65536;
    return (BigInt(now) * 65536n + BigInt(this.seq)).toString();
  }

  clear(): void {
    this.limits = { ...DEFAULT_MASTODON_SANDBOX_LIMITS, ...this.initial };
    for (const m of [
      this.apps,
      this.codes,
      this.tokens,
      this.media,
      this.statuses,
      this.idempotency,
      this.notifications,
    ])
      m.clear();
  }
}

/** `name@instance` → its parts; a plain name lives on the default instance. */
export function mastodonAccountOf(handle: string): { username: string; instance: string } {
  const at = handle.indexOf('@');
  return at > 0
    ? { username: handle.slice(0, at), instance: handle.slice(at + 1).toLowerCase() }
    : { username: handle, instance: DEFAULT_MASTODON_INSTANCE };
}
