import { createHmac, randomBytes } from 'node:crypto';

/**
 * What the emulated atproto authorization server remembers: pushed requests, codes, sessions and
 * their refresh tokens, DPoP nonces and the proofs already seen. Lifetimes are those of the
 * reference server (@atproto/oauth-provider, oauth-constants).
 */

/** An OAuth error answer `{ error, error_description }`; the DPoP ones also carry `WWW-Authenticate: DPoP …` and 401. */
export class AtprotoOAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
    /** Answer `WWW-Authenticate: DPoP error=…` (RFC 9449 7.1): the DPoP proof or key binding failed. */
    readonly dpopChallenge = false,
  ) {
    super(description);
  }
}

export const invalidDpopProof = (description: string) =>
  new AtprotoOAuthError('invalid_dpop_proof', description, 401, true);
export const useDpopNonce = (description = 'Authorization server requires nonce in DPoP proof') =>
  new AtprotoOAuthError('use_dpop_nonce', description);
export const invalidGrant = (description: string) => new AtprotoOAuthError('invalid_grant', description);
export const invalidRequest = (description: string) => new AtprotoOAuthError('invalid_request', description);
export const invalidClientMetadata = (description: string) =>
  new AtprotoOAuthError('invalid_client_metadata', description);

/** The `WWW-Authenticate` value of a DPoP failure, as the reference server writes it. */
export function dpopChallenge(error: string, description: string): string {
  const params: [string, string][] = [
    ['algs', 'ES256'],
    ['error', error],
    ['error_description', description],
  ];
  return `DPoP ${params
    .filter(([, v]) => v && !v.includes('"'))
    .map(([k, v]) => `${k}="${v}"`)
    .join(', ')}`;
}

export interface BlueskyOAuthRules {
  /**
   * Accept client metadata documents on http loopback addresses (127.0.0.1, [::1], localhost, any
   * port) and loopback redirect URIs for web clients: what a Postbus started on a laptop or in tests
   * publishes. The real entryway refuses them (https, a domain name, public addresses only).
   */
  allowLoopbackClientMetadata: boolean;
  /** Access token lifetime; the spec asks for under 30 minutes. */
  accessTokenTtlSec: number;
  /** Longest wait for a client metadata document or JWKS, and its largest size. */
  fetchTimeoutMs: number;
  fetchMaxBytes: number;
}

export const DEFAULT_BLUESKY_OAUTH_RULES: BlueskyOAuthRules = {
  allowLoopbackClientMetadata: false,
  accessTokenTtlSec: 900,
  fetchTimeoutMs: 5000,
  fetchMaxBytes: 64 * 1024,
};

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
export const LIFETIMES = {
  /** A pushed request is usable this long (PAR_EXPIRES_IN). */
  parMs: 5 * MINUTE,
  /** Once the consent page is opened, and once a code is issued (AUTHORIZATION_INACTIVITY_TIMEOUT). */
  inactivityMs: 5 * MINUTE,
  /** DPoP proofs: `iat` at most 10 s old, 3 minutes of clock tolerance (DPOP_NONCE_MAX_AGE). */
  dpopMaxAgeSec: 10,
  dpopToleranceSec: 180,
  /** Client assertions: `iat` at most a minute old (CLIENT_ASSERTION_MAX_AGE). */
  assertionMaxAgeSec: 60,
  /** Sessions and refresh tokens: public clients 2 weeks each; confidential ones 2 years and 3 months. */
  publicSessionMs: 14 * DAY,
  publicRefreshMs: 14 * DAY,
  confidentialSessionMs: 730.5 * DAY,
  confidentialRefreshMs: 91.3 * DAY,
  /** A code challenge is refused again within a day (CODE_CHALLENGE_REPLAY_TIMEFRAME). */
  codeChallengeMs: DAY,
};

/** How the client authenticated: the session stays bound to it (method, and for private_key_jwt the key). */
export interface ClientAuth {
  method: 'none' | 'private_key_jwt';
  kid?: string;
  jkt?: string;
}

/** An authorization request pushed to PAR, until its code is redeemed. */
export interface PushedRequest {
  id: string;
  clientId: string;
  clientAuth: ClientAuth;
  params: Record<string, string>;
  /** The DPoP key (thumbprint) every token of the session is bound to. */
  dpopJkt: string;
  expiresAt: number;
  did?: string;
  code?: string;
}

export interface OAuthSession {
  id: string;
  did: string;
  clientId: string;
  clientAuth: ClientAuth;
  confidential: boolean;
  dpopJkt: string;
  scope: string;
  code: string;
  createdAt: number;
  updatedAt: number;
  refreshToken: string;
}

/**
 * Server nonces for DPoP (RFC 9449 8): an HMAC of the minute counter; the previous, current and
 * next one are accepted, so a nonce lives about three minutes, as the reference server rotates them.
 */
export class DpopNonces {
  private secret = randomBytes(32);

  constructor(private readonly now: () => number) {}

  private at(counter: number): string {
    const bytes = Buffer.alloc(8);
    bytes.writeBigInt64BE(BigInt(counter));
    return createHmac('sha256', this.secret).update(bytes).digest('base64url');
  }

  private counter(): number {
    return Math.floor(this.now() / MINUTE);
  }

  next(): string {
    return this.at(this.counter() + 1);
  }

  check(nonce: string): boolean {
    const c = this.counter();
    return [c - 1, c, c + 1].some((n) => this.at(n) === nonce);
  }

  reset(): void {
    this.secret = randomBytes(32);
  }
}

/** Values seen once (DPoP `jti`, client assertion `jti`, code challenges), remembered until they could no longer pass. */
export class ReplaySet {
  private readonly seen = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** True the first time a value is offered within its time frame. */
  unique(value: string, forMs: number): boolean {
    const now = this.now();
    if (this.seen.size > 10_000) for (const [k, until] of this.seen) if (until <= now) this.seen.delete(k);
    const until = this.seen.get(value);
    if (until !== undefined && until > now) return false;
    this.seen.set(value, now + forMs);
    return true;
  }

  clear(): void {
    this.seen.clear();
  }
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

export class BlueskyOAuthStore {
  rules: BlueskyOAuthRules;
  /** Signs the access tokens (apart from the app-password sessions' secret, so neither passes for the other). */
  readonly tokenSecret = randomBytes(32);
  readonly authorizationNonces: DpopNonces;
  /** The PDS's own nonces: a client keeps one per server, as with bsky.social's entryway and PDSes. */
  readonly resourceNonces: DpopNonces;
  readonly replays: ReplaySet;
  readonly requests = new Map<string, PushedRequest>();
  readonly sessions = new Map<string, OAuthSession>();
  /** Every refresh token a session had, current or spent, to recognise a replay. */
  readonly refreshTokens = new Map<string, string>();
  /** Codes already redeemed, with the session each created (a second use revokes it). */
  readonly redeemedCodes = new Map<string, string>();
  private readonly initialRules: BlueskyOAuthRules;

  constructor(
    rules: Partial<BlueskyOAuthRules> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.initialRules = { ...DEFAULT_BLUESKY_OAUTH_RULES, ...rules };
    this.rules = { ...this.initialRules };
    this.authorizationNonces = new DpopNonces(now);
    this.resourceNonces = new DpopNonces(now);
    this.replays = new ReplaySet(now);
  }

  /** `urn:ietf:params:oauth:request_uri:req-<hex>`, as the reference server names them. */
  pushRequest(entry: Omit<PushedRequest, 'id' | 'expiresAt'>): PushedRequest {
    const request: PushedRequest = { ...entry, id: `req-${hex(16)}`, expiresAt: this.now() + LIFETIMES.parMs };
    this.requests.set(request.id, request);
    return request;
  }

  createSession(entry: Omit<OAuthSession, 'id' | 'createdAt' | 'updatedAt' | 'refreshToken'>): OAuthSession {
    const now = this.now();
    const session: OAuthSession = { ...entry, id: `tok-${hex(16)}`, createdAt: now, updatedAt: now, refreshToken: '' };
    this.sessions.set(session.id, session);
    this.redeemedCodes.set(entry.code, session.id);
    this.rotate(session);
    return session;
  }

  /** A new refresh token for the session; the spent one stays known so that a replay is recognised. */
  rotate(session: OAuthSession): string {
    session.refreshToken = `ref-${hex(32)}`;
    session.updatedAt = this.now();
    this.refreshTokens.set(session.refreshToken, session.id);
    return session.refreshToken;
  }

  deleteSession(id: string): void {
    this.sessions.delete(id);
  }

  deleteSessionsOf(did: string): void {
    for (const [id, s] of this.sessions) if (s.did === did) this.sessions.delete(id);
  }

  clear(): void {
    this.rules = { ...this.initialRules };
    this.requests.clear();
    this.sessions.clear();
    this.refreshTokens.clear();
    this.redeemedCodes.clear();
    this.replays.clear();
    this.authorizationNonces.reset();
    this.resourceNonces.reset();
  }
}

export const newCode = () => `cod-${hex(32)}`;
export const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';
