import type { Platform } from '@postbus/contracts';

/**
 * What every platform's OAuth client offers: the authorize link, the code exchange, the accounts a
 * grant reaches, and the refresh of stored credentials. Wire details stay in each platform's oauth.ts.
 */
export interface PlatformOAuthClient {
  readonly platform: Platform;
  /** Whether the platform takes PKCE (S256) on the authorize link and the code exchange. */
  readonly pkce: boolean;
  /**
   * Whether each refresh replaces the refresh token and retires the old one (TikTok): a refresh
   * that may have reached the platform without its answer coming back must not be sent again blindly.
   */
  readonly rotatesRefreshToken?: boolean;
  /** The platform's consent page for this request. */
  authorizeUrl(params: AuthorizeParams): string;
  /** Exchanges the callback's code (and, with PKCE, the verifier) for tokens; long-lived ones where the platform has them. */
  exchangeCode(params: { code: string; redirectUri: string; codeVerifier?: string }): Promise<GrantTokens>;
  /**
   * The accounts the grant reaches, each with the credentials to store for it: the user itself on
   * most platforms, every granted Page on Facebook, the channel(s) on YouTube.
   */
  listAccounts(tokens: GrantTokens): Promise<PlatformAccount[]>;
  /** New credentials from stored ones. `refreshToken: null` in the answer means "keep the stored one". */
  refresh(stored: StoredCredentials): Promise<RefreshedCredentials>;
}

export interface AuthorizeParams {
  redirectUri: string;
  /** Opaque value bound to the connection request; comes back on the callback. */
  state: string;
  /** S256 challenge, sent only when the platform takes PKCE. */
  codeChallenge?: string;
}

/** The answer of a code exchange. */
export interface GrantTokens {
  accessToken: string;
  /** Null when the platform issues none (Instagram, Threads, Facebook refresh the access token itself). */
  refreshToken: string | null;
  /** Null when the token does not expire. */
  expiresAt: Date | null;
  refreshExpiresAt: Date | null;
  scopes: string[];
  /** The platform's id of the user when the token answer names it (Instagram user_id, Threads user_id, TikTok open_id). */
  platformUserId?: string;
}

/** Credentials as connections keeps them for one profile. */
export interface StoredCredentials {
  platformUserId: string;
  accessToken: string;
  /** TikTok, YouTube: the refresh token. Facebook: the long-lived user token the Page token is read with. */
  refreshToken: string | null;
  expiresAt: Date | null;
}

export interface RefreshedCredentials {
  accessToken: string;
  /** A replacement refresh token (TikTok rotates them); null keeps the stored one. */
  refreshToken: string | null;
  expiresAt: Date | null;
  refreshExpiresAt?: Date | null;
  /** The scopes the refreshed grant holds, when the platform's answer lists them (TikTok, Google); absent keeps the stored ones. */
  scopes?: string[];
}

/** One account a grant reaches, ready to be stored as a profile. */
export interface PlatformAccount {
  platformUserId: string;
  handle: string;
  /** What the platform shows as the account's name (Page name, channel title, nickname). */
  displayName: string;
  profileUrl: string;
  profileImageUrl: string | null;
  credentials: StoredCredentials;
  /** The scopes the grant holds, when the platform's token answer listed them. */
  scopes?: string[];
}

/** App credentials and transport shared by every platform client. */
export interface OAuthAppOptions {
  clientId: string;
  clientSecret: string;
  /** Defaults to the global fetch. */
  fetchImpl?: typeof fetch;
  /** Deadline of each HTTP call; default 10 s. */
  timeoutMs?: number;
  /** Clock for expiry arithmetic; default Date.now. */
  now?: () => number;
}

export const OAUTH_DEFAULT_TIMEOUT_MS = 10_000;

/** `expires_in` seconds from now, or null when absent. */
export function expiryFrom(expiresIn: unknown, now: number): Date | null {
  const seconds = typeof expiresIn === 'string' ? Number(expiresIn) : expiresIn;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? new Date(now + seconds * 1000) : null;
}

/** Joins a base URL and a path without doubling or dropping slashes. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** A URL with query parameters added (undefined values left out). */
export function withQuery(url: string, query: Record<string, string | undefined>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) u.searchParams.set(k, v);
  return u.toString();
}
