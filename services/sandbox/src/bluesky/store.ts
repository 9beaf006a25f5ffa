import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { SandboxUser } from '../users';

/** A blob uploaded with com.atproto.repo.uploadBlob, held for the account that uploaded it. */
export interface BlueskyBlob {
  cid: string;
  did: string;
  mimeType: string;
  size: number;
}

export interface BlueskyRecord {
  uri: string;
  cid: string;
  rkey: string;
  collection: string;
  value: Record<string, unknown>;
  createdAt: number;
}

/** What the emulated PDS answers within: its lexicon limits are fixed, these are the PDS's own. */
export interface BlueskyLimits {
  /** Access JWT lifetime: 2 hours on bsky.social. */
  accessTtlSec: number;
  /** Refresh JWT lifetime: 90 days. */
  refreshTtlSec: number;
  /** A replaced refresh JWT still works this long (the reference PDS's grace period, so a lost refresh answer can be asked again). */
  refreshGraceSec: number;
  /** Largest blob one uploadBlob takes. */
  blobMaxBytes: number;
}

export const DEFAULT_BLUESKY_LIMITS: BlueskyLimits = {
  accessTtlSec: 7200,
  refreshTtlSec: 90 * 86_400,
  refreshGraceSec: 7200,
  blobMaxBytes: 100_000_000,
};

interface SessionClaims {
  scope: string;
  sub: string;
  iat: number;
  exp: number;
  jti: string;
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 base32, lower case, unpadded: the multibase `b` encoding of CIDs and the body of did:plc. */
export function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** A CIDv1 (sha2-256) in base32: codec 0x55 (raw) for blobs, 0x71 (dag-cbor) for records — https://atproto.com/specs/data-model#link-and-cid-formats */
export function cidOf(bytes: Uint8Array, codec: 0x55 | 0x71): string {
  const digest = createHash('sha256').update(bytes).digest();
  return `b${base32(Buffer.concat([Buffer.from([0x01, codec, 0x12, 0x20]), digest]))}`;
}

/** The emulated PDS's accounts, sessions, blobs and records. */
export class BlueskyStore {
  readonly limits: BlueskyLimits;
  readonly blobs = new Map<string, BlueskyBlob>();
  /** Records by at-uri. */
  readonly records = new Map<string, BlueskyRecord>();
  /** Refresh JWT ids still usable, with the instant (epoch ms) each stops being usable. */
  private readonly refreshIds = new Map<string, number>();
  private readonly secret = randomBytes(32);

  constructor(limits: Partial<BlueskyLimits> = {}) {
    this.limits = { ...DEFAULT_BLUESKY_LIMITS, ...limits };
  }

  /** The account's DID: did:plc and 24 base32 characters, fixed for a sandbox user — https://atproto.com/specs/did */
  didOf(user: SandboxUser): string {
    return `did:plc:${base32(createHash('sha256').update(`bluesky:${user.userId}`).digest()).slice(0, 24)}`;
  }

  /** The account's handle, a domain name (https://atproto.com/specs/handle): the sandbox handle itself when it is one, else under .bsky.social. */
  handleOf(user: SandboxUser): string {
    const h = user.handle.toLowerCase();
    if (/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/.test(h)) return h;
    return `${
      h
        .replace(/[^a-z0-9-]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 40) || 'user'
    }.bsky.social`;
  }

  /** A new access and refresh JWT pair for the account (HS256, as the reference PDS signs them). */
  issueSession(did: string, nowMs: number): { accessJwt: string; refreshJwt: string } {
    const iat = Math.floor(nowMs / 1000);
    const refreshId = randomBytes(16).toString('base64url');
    this.refreshIds.set(refreshId, (iat + this.limits.refreshTtlSec) * 1000);
    return {
      accessJwt: this.sign('at+jwt', {
        scope: 'com.atproto.appPass',
        sub: did,
        iat,
        exp: iat + this.limits.accessTtlSec,
        jti: randomBytes(16).toString('base64url'),
      }),
      refreshJwt: this.sign('refresh+jwt', {
        scope: 'com.atproto.refresh',
        sub: did,
        iat,
        exp: iat + this.limits.refreshTtlSec,
        jti: refreshId,
      }),
    };
  }

  /** Retires a refresh JWT once it was used: it still works for the grace period. */
  retireRefresh(jti: string, nowMs: number): void {
    const until = this.refreshIds.get(jti);
    if (until !== undefined) this.refreshIds.set(jti, Math.min(until, nowMs + this.limits.refreshGraceSec * 1000));
  }

  refreshUsable(jti: string, nowMs: number): boolean {
    const until = this.refreshIds.get(jti);
    return until !== undefined && until > nowMs;
  }

  /** The claims of a JWT this PDS signed with the expected type; undefined when it is not one. */
  verify(jwt: string, typ: 'at+jwt' | 'refresh+jwt'): SessionClaims | undefined {
    const [header, payload, signature] = jwt.split('.');
    if (!header || !payload || !signature) return undefined;
    const expected = createHmac('sha256', this.secret).update(`${header}.${payload}`).digest('base64url');
    if (expected !== signature) return undefined;
    try {
      const h = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { typ?: string };
      if (h.typ !== typ) return undefined;
      return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as SessionClaims;
    } catch {
      return undefined;
    }
  }

  recordsOf(did: string, collection: string): BlueskyRecord[] {
    const prefix = `at://${did}/${collection}/`;
    return [...this.records.values()].filter((r) => r.uri.startsWith(prefix));
  }

  clear(): void {
    this.blobs.clear();
    this.records.clear();
    this.refreshIds.clear();
  }

  private sign(typ: string, claims: SessionClaims): string {
    const header = Buffer.from(JSON.stringify({ typ, alg: 'HS256' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${header}.${payload}.${createHmac('sha256', this.secret).update(`${header}.${payload}`).digest('base64url')}`;
  }
}
