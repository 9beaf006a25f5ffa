import type { Platform } from '@postbus/contracts';
import { DEFAULT_OAUTH_SETTINGS, type OAuthPlatformSettings } from './oauth-settings';

/** A code the consent page handed out: single use, bound to the client, redirect URI and PKCE challenge. */
export interface AuthCode {
  code: string;
  platform: Platform;
  clientId: string;
  redirectUri: string;
  /** The accounts the person granted (several Pages on Facebook, one account elsewhere). */
  userIds: string[];
  scopes: string[];
  codeChallenge?: string;
  codeChallengeMethod?: string;
  expiresAt: number;
  used: boolean;
}

export interface RefreshGrant {
  token: string;
  platform: Platform;
  clientId: string;
  userId: string;
  expiresAt: number | null;
  /** False once rotated away. */
  active: boolean;
  /** The scopes the person granted; a refresh answers them again. */
  scopes?: string[];
}

/** A Facebook user token: it reaches the granted Pages (`/me/accounts`), not a Page itself. */
export interface FacebookUserToken {
  token: string;
  clientId: string;
  personId: string;
  pageIds: string[];
  expiresAt: number;
}

/** Every token handed out, so tests can check that none of them is stored in clear text. */
export interface IssuedToken {
  platform: Platform;
  kind: 'access' | 'refresh' | 'user';
  token: string;
  userId: string | null;
  issuedAt: string;
  expiresAt: string | null;
}

export const OAUTH_FAULT_OPERATIONS = ['token', 'profile', 'any'] as const;
export type OAuthFaultOperation = (typeof OAUTH_FAULT_OPERATIONS)[number];

/** The next `count` token or profile calls of a platform answer `status` (5xx: transient) or the OAuth `error`. */
export interface OAuthFault {
  platform: Platform;
  operation: OAuthFaultOperation;
  status: number;
  error?: string;
  /** The call is carried out (a refresh rotates the token) but its answer is never sent: the connection is dropped. */
  dropAnswer?: boolean;
  count: number;
}

/** What the emulated authorization servers remember. */
export class OAuthStore {
  settings: Record<Platform, OAuthPlatformSettings> = cloneDefaults();
  readonly codes = new Map<string, AuthCode>();
  readonly refreshTokens = new Map<string, RefreshGrant>();
  readonly facebookTokens = new Map<string, FacebookUserToken>();
  readonly issued: IssuedToken[] = [];
  private faults: OAuthFault[] = [];

  addFault(fault: OAuthFault): void {
    this.faults.push({ ...fault });
  }

  /** Consumes one matching fault, if any. */
  takeFault(platform: Platform, operation: Exclude<OAuthFaultOperation, 'any'>): OAuthFault | undefined {
    const fault = this.faults.find(
      (f) => f.platform === platform && (f.operation === operation || f.operation === 'any'),
    );
    if (!fault) return undefined;
    fault.count -= 1;
    if (fault.count <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return { ...fault };
  }

  clear(): void {
    this.settings = cloneDefaults();
    this.codes.clear();
    this.refreshTokens.clear();
    this.facebookTokens.clear();
    this.issued.length = 0;
    this.faults = [];
  }
}

function cloneDefaults(): Record<Platform, OAuthPlatformSettings> {
  return Object.fromEntries(Object.entries(DEFAULT_OAUTH_SETTINGS).map(([p, s]) => [p, { ...s }])) as Record<
    Platform,
    OAuthPlatformSettings
  >;
}
