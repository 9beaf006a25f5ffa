import { createHmac, timingSafeEqual } from 'node:crypto';

const HEADER = /^sha256=([0-9a-f]{64})$/i;

/**
 * `X-Hub-Signature-256: sha256=<hex>`: the HMAC-SHA256 of the raw body bytes with the App Secret,
 * compared in constant time; never computed over re-serialized JSON.
 */
export function isMetaSignatureValid(rawBody: Buffer, header: string | undefined, appSecret: string): boolean {
  const hex = HEADER.exec(header?.trim() ?? '')?.[1];
  if (!hex) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  const given = Buffer.from(hex, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Signed by one of our apps (the Meta app for Instagram and Facebook, the Threads app for Threads). */
export function isSignedByAny(rawBody: Buffer, header: string | undefined, appSecrets: string[]): boolean {
  return appSecrets.some((secret) => isMetaSignatureValid(rawBody, header, secret));
}

/** The handshake's verify token, compared in constant time. */
export function isVerifyTokenValid(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
