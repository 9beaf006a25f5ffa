import { createHash, createHmac, createPublicKey, timingSafeEqual, verify, type KeyObject } from 'node:crypto';

/**
 * The few JOSE pieces the atproto OAuth emulator needs (RFC 7515 compact JWS, RFC 7638 thumbprints),
 * on node:crypto: ES256 for DPoP proofs and client assertions, HS256 for the tokens it issues itself.
 * Messages follow the `jose` library's, which the reference authorization server quotes in its errors.
 */
export class JoseError extends Error {}

export interface EcPublicJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  kid?: string;
}

export interface DecodedJws {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signingInput: string;
  signature: Buffer;
}

const B64URL = /^[A-Za-z0-9_-]+$/;

export const sha256Base64url = (value: string): string => createHash('sha256').update(value).digest('base64url');

function jsonPart(part: string, what: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new JoseError(`${what} must be a JSON object`);
}

/** Splits a compact JWS; throws on anything that is not three base64url parts with JSON header and payload. */
export function decodeJws(jws: string): DecodedJws {
  const parts = jws.split('.');
  if (parts.length !== 3 || !parts.every((p) => B64URL.test(p))) throw new JoseError('Invalid Compact JWS');
  return {
    header: jsonPart(parts[0], 'JWS Protected Header'),
    payload: jsonPart(parts[1], 'JWT Claims Set'),
    signingInput: `${parts[0]}.${parts[1]}`,
    signature: Buffer.from(parts[2], 'base64url'),
  };
}

/** An EC P-256 public JWK (the only kind ES256 signs with); a private one (`d`) is refused. */
export function asEcPublicJwk(value: unknown): EcPublicJwk {
  const jwk = value as Record<string, unknown> | null;
  if (!jwk || typeof jwk !== 'object')
    throw new JoseError('"jwk" (JSON Web Key) Header Parameter must be a JSON object');
  if (jwk.d !== undefined) throw new JoseError('"jwk" (JSON Web Key) Header Parameter must be a public key');
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string')
    throw new JoseError('Invalid or unsupported JWK "alg" (Algorithm) Parameter value');
  return jwk as unknown as EcPublicJwk;
}

function keyOf(jwk: EcPublicJwk): KeyObject {
  try {
    return createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, format: 'jwk' });
  } catch {
    throw new JoseError('Invalid EC key');
  }
}

/** Checks an ES256 signature (IEEE P1363 r||s) by the given public JWK; throws as jose does when it fails. */
export function verifyEs256(jws: DecodedJws, jwk: EcPublicJwk): void {
  if (jws.header.alg !== 'ES256') throw new JoseError('"alg" (Algorithm) Header Parameter value not allowed');
  const ok =
    jws.signature.length === 64 &&
    verify('sha256', Buffer.from(jws.signingInput), { key: keyOf(jwk), dsaEncoding: 'ieee-p1363' }, jws.signature);
  if (!ok) throw new JoseError('signature verification failed');
}

/** RFC 7638 thumbprint (SHA-256, base64url) of an EC public key: the DPoP `jkt`. */
export function jwkThumbprint(jwk: EcPublicJwk): string {
  return sha256Base64url(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }));
}

/**
 * The time claims jose checks with `maxTokenAge` and a clock tolerance: `iat` required, not older
 * than maxAgeSec (+ tolerance) nor in the future (beyond tolerance); `exp` and `nbf` when present.
 */
export function checkTimes(
  payload: Record<string, unknown>,
  nowSec: number,
  maxAgeSec: number,
  toleranceSec = 0,
): void {
  const { iat, exp, nbf } = payload;
  if (typeof iat !== 'number') throw new JoseError('"iat" claim must be a number');
  if (nowSec - iat > maxAgeSec + toleranceSec)
    throw new JoseError('"iat" claim timestamp check failed (too far in the past)');
  if (iat - nowSec > toleranceSec) throw new JoseError('"iat" claim timestamp check failed (it should be in the past)');
  if (exp !== undefined && (typeof exp !== 'number' || exp <= nowSec - toleranceSec))
    throw new JoseError('"exp" claim timestamp check failed');
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > nowSec + toleranceSec))
    throw new JoseError('"nbf" claim timestamp check failed');
}

/** A JWT signed with HS256 under the server's own secret (the tokens clients treat as opaque). */
export function signHs256(secret: Buffer, header: Record<string, unknown>, payload: Record<string, unknown>): string {
  const input = `${Buffer.from(JSON.stringify({ ...header, alg: 'HS256' })).toString('base64url')}.${Buffer.from(
    JSON.stringify(payload),
  ).toString('base64url')}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

/** The header and claims of a JWT this server signed with HS256 under `secret`; undefined for any other string. */
export function verifyHs256(secret: Buffer, jwt: string): DecodedJws | undefined {
  let jws: DecodedJws;
  try {
    jws = decodeJws(jwt);
  } catch {
    return undefined;
  }
  const expected = createHmac('sha256', secret).update(jws.signingInput).digest();
  if (jws.header.alg !== 'HS256' || expected.length !== jws.signature.length) return undefined;
  return timingSafeEqual(expected, jws.signature) ? jws : undefined;
}
