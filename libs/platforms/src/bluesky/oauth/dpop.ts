import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  type JsonWebKey,
} from 'node:crypto';

/**
 * DPoP (RFC 9449) as the atproto OAuth profile asks it (https://atproto.com/specs/oauth#demonstrating-proof-of-possession-dpop):
 * one ES256 key per session, a proof JWT on every request to the authorization server and to the
 * PDS, carrying the latest server-provided nonce, and `ath` beside an access token.
 */

/** A P-256 private key as a JWK (kty EC, crv P-256, x, y, d): what is sealed and kept per session. */
export interface DpopPrivateJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  d: string;
}

/** A fresh ES256 key for one session (https://atproto.com/specs/oauth#demonstrating-proof-of-possession-dpop). */
export function newDpopKey(): DpopPrivateJwk {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return asPrivateJwk(privateKey.export({ format: 'jwk' }));
}

/** Reads a kept key back; refuses anything but a P-256 private JWK. */
export function asPrivateJwk(value: unknown): DpopPrivateJwk {
  const jwk = (value ?? {}) as Record<string, unknown>;
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || ![jwk.x, jwk.y, jwk.d].every((v) => typeof v === 'string' && v)) {
    throw new Error('the DPoP key is not a P-256 private JWK');
  }
  return { kty: 'EC', crv: 'P-256', x: jwk.x as string, y: jwk.y as string, d: jwk.d as string };
}

/** The public half as the proof header's `jwk` (never the private `d`). */
export function publicJwkOf(key: DpopPrivateJwk): { kty: 'EC'; crv: 'P-256'; x: string; y: string } {
  return { kty: 'EC', crv: 'P-256', x: key.x, y: key.y };
}

export const b64url = (bytes: Buffer | string): string => Buffer.from(bytes).toString('base64url');
export const randomToken = (bytes = 32): string => b64url(randomBytes(bytes));
export const sha256b64url = (text: string): string => b64url(createHash('sha256').update(text).digest());

/** A compact JWS signed with ES256 (R || S, as JWS wants it, not DER). */
export function signEs256(header: Record<string, unknown>, payload: Record<string, unknown>, key: JsonWebKey): string {
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
  const signature = sign('sha256', Buffer.from(input), {
    key: createPrivateKey({ key: key, format: 'jwk' }),
    dsaEncoding: 'ieee-p1363',
  });
  return `${input}.${b64url(signature)}`;
}

/** `htu` is the request URL without query and fragment (RFC 9449 §4.2). */
export function htuOf(url: string | URL): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

export interface DpopProofInput {
  key: DpopPrivateJwk;
  method: string;
  url: string | URL;
  nonce?: string;
  /** The access token sent beside the proof: bound as `ath` (RFC 9449 §4.2). */
  accessToken?: string;
  /** Seconds since the epoch; default now. */
  iat?: number;
}

/** One DPoP proof JWT: header typ dpop+jwt, alg ES256, the public jwk; claims jti, htm, htu, iat, nonce, ath. */
export function dpopProof(input: DpopProofInput): string {
  const payload: Record<string, unknown> = {
    jti: randomToken(16),
    htm: input.method.toUpperCase(),
    htu: htuOf(input.url),
    iat: input.iat ?? Math.floor(Date.now() / 1000),
  };
  if (input.nonce) payload.nonce = input.nonce;
  if (input.accessToken) payload.ath = sha256b64url(input.accessToken);
  return signEs256({ typ: 'dpop+jwt', alg: 'ES256', jwk: publicJwkOf(input.key) }, payload, { ...input.key });
}

/**
 * A session's DPoP key with the nonces its servers handed out, one per origin (the authorization
 * server and the PDS each keep their own: https://atproto.com/specs/oauth#demonstrating-proof-of-possession-dpop).
 */
export class DpopSigner {
  private readonly nonces = new Map<string, string>();

  constructor(
    readonly key: DpopPrivateJwk,
    nonces: Record<string, string> = {},
  ) {
    for (const [origin, nonce] of Object.entries(nonces)) this.nonces.set(origin, nonce);
  }

  proof(method: string, url: string | URL, accessToken?: string): string {
    return dpopProof({ key: this.key, method, url, accessToken, nonce: this.nonces.get(new URL(url).origin) });
  }

  /** Keeps the nonce a server sent (DPoP-Nonce header); answers whether it is new. */
  remember(url: string | URL, nonce: string | null | undefined): boolean {
    if (!nonce || nonce.length > 512) return false;
    const origin = new URL(url).origin;
    if (this.nonces.get(origin) === nonce) return false;
    this.nonces.set(origin, nonce);
    return true;
  }

  nonceFor(url: string | URL): string | undefined {
    return this.nonces.get(new URL(url).origin);
  }
}

/** Checks a private JWK is the ES256 client key a confidential client signs its assertions with; answers its public JWK for the JWKS. */
export function clientPublicJwk(
  key: JsonWebKey & { kid?: string },
): JsonWebKey & { kid: string; alg: 'ES256'; use: 'sig' } {
  const jwk = asPrivateJwk(key);
  if (!key.kid) throw new Error('the client key has no "kid"');
  const pub = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' }).export({ format: 'jwk' });
  return { kty: pub.kty, crv: pub.crv, x: pub.x, y: pub.y, kid: key.kid, alg: 'ES256', use: 'sig' };
}
