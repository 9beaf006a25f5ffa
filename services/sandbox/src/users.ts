import type { Platform } from '@postbus/contracts';
import type { IdGenerator } from './ids';

export interface SandboxUser {
  platform: Platform;
  userId: string;
  handle: string;
  accessToken: string;
  /** A revoked token answers the platform's "session invalidated" error. */
  revoked: boolean;
  /** TikTok: a private account (creator_info offers no PUBLIC_TO_EVERYONE; an unaudited client may post only to such accounts). */
  privateAccount: boolean;
  createdAt: string;
}

/** What each platform's tokens look like, so a token is recognisable in logs and tests. */
const TOKEN_PREFIX: Record<Platform, string> = {
  threads: 'THAA',
  instagram: 'IGAA',
  facebook: 'EAAB',
  tiktok: 'act.',
  youtube: 'ya29.',
  // A Bluesky user's token is its app password (createSession trades it for session JWTs): https://atproto.com/specs/xrpc#app-passwords
  bluesky: 'bsky-app-',
  // A Mastodon user's handle is `username@instance`; this token works on its instance as one with every scope.
  mastodon: 'mtok_',
  // LinkedIn access tokens are opaque; real ones start with AQ.
  linkedin: 'AQV',
  // X OAuth 2.0 user tokens are opaque base64url strings.
  x: 'xat-',
  // Pinterest access tokens start with pina_ (https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/).
  pinterest: 'pina_',
};

/** Accounts on the emulated platforms and the access tokens the sandbox recognises. */
export class UserRegistry {
  private readonly byToken = new Map<string, SandboxUser>();
  private readonly byId = new Map<string, SandboxUser>();
  /** Expiry (epoch ms) of tokens issued through OAuth; control-API tokens never expire. */
  private readonly tokenExpiry = new Map<string, number>();
  /** When each token was handed out (epoch ms). */
  private readonly tokenIssuedAt = new Map<string, number>();

  constructor(
    private readonly ids: IdGenerator,
    private readonly clock: () => number = Date.now,
  ) {}

  create(platform: Platform, handle: string, now: Date, opts: { privateAccount?: boolean } = {}): SandboxUser {
    const user: SandboxUser = {
      platform,
      userId: this.ids.numeric(),
      handle,
      accessToken: this.ids.token(TOKEN_PREFIX[platform]),
      revoked: false,
      privateAccount: opts.privateAccount ?? false,
      createdAt: now.toISOString(),
    };
    this.byToken.set(user.accessToken, user);
    this.byId.set(user.userId, user);
    this.tokenIssuedAt.set(user.accessToken, now.getTime());
    return user;
  }

  /** The user a token belongs to on that platform, revoked or not; undefined for an unknown token. */
  byAccessToken(platform: Platform, token: string): SandboxUser | undefined {
    const user = this.byToken.get(token);
    const expiresAt = this.tokenExpiry.get(token);
    if (expiresAt !== undefined && expiresAt <= this.clock()) return undefined;
    return user?.platform === platform ? user : undefined;
  }

  /** Another access token for the user (an OAuth grant), recognised until `expiresAtMs` when given. */
  issueToken(userId: string, expiresAtMs?: number): string {
    const user = this.byId.get(userId);
    if (!user) throw new Error(`no sandbox user ${userId}`);
    const token = this.ids.token(TOKEN_PREFIX[user.platform]);
    this.byToken.set(token, user);
    this.tokenIssuedAt.set(token, this.clock());
    if (expiresAtMs !== undefined) this.tokenExpiry.set(token, expiresAtMs);
    return token;
  }

  /** When a token was handed out (epoch ms); undefined for an unknown one. */
  issuedAt(token: string): number | undefined {
    return this.tokenIssuedAt.get(token);
  }

  /** The platform's users, oldest first. */
  list(platform?: Platform): SandboxUser[] {
    return [...this.byId.values()].filter((u) => !platform || u.platform === platform);
  }

  /** How many users the platform has: what Meta sizes an app's call budget by. */
  count(platform: Platform): number {
    let n = 0;
    for (const user of this.byId.values()) if (user.platform === platform) n += 1;
    return n;
  }

  get(userId: string): SandboxUser | undefined {
    return this.byId.get(userId);
  }

  revoke(userId: string): SandboxUser | undefined {
    const user = this.byId.get(userId);
    if (user) user.revoked = true;
    return user;
  }

  clear(): void {
    this.byToken.clear();
    this.byId.clear();
    this.tokenExpiry.clear();
    this.tokenIssuedAt.clear();
  }
}
