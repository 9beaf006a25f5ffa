import type { Request } from 'express';
import {
  asEcPublicJwk,
  checkTimes,
  decodeJws,
  JoseError,
  jwkThumbprint,
  sha256Base64url,
  verifyEs256,
} from './oauth-jose';
import { invalidDpopProof, LIFETIMES, useDpopNonce, type DpopNonces, type ReplaySet } from './oauth-store';

export interface DpopProof {
  jti: string;
  /** RFC 7638 thumbprint of the key that signed the proof. */
  jkt: string;
}

/** The URL a request was sent to, as its DPoP `htu` must name it: origin and path, no query or fragment. */
export function requestUrl(req: Request): URL {
  return new URL(req.originalUrl, `${req.protocol}://${req.get('host')}`);
}

const htuOf = (url: URL) => url.origin + url.pathname;

function parseHtu(htu: string): string {
  let url: URL;
  try {
    url = new URL(htu);
  } catch {
    throw invalidDpopProof('DPoP "htu" is not a valid URL');
  }
  if (url.username || url.password) throw invalidDpopProof('DPoP "htu" must not contain credentials');
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidDpopProof('DPoP "htu" must be http or https');
  return htuOf(url);
}

function verifiedProof(proof: string, nowSec: number): { payload: Record<string, unknown>; jkt: string } {
  try {
    const jws = decodeJws(proof);
    if (jws.header.typ !== 'dpop+jwt') throw new JoseError('unexpected "typ" JWT header value');
    const jwk = asEcPublicJwk(jws.header.jwk);
    verifyEs256(jws, jwk);
    checkTimes(jws.payload, nowSec, LIFETIMES.dpopMaxAgeSec, LIFETIMES.dpopToleranceSec);
    return { payload: jws.payload, jkt: jwkThumbprint(jwk) };
  } catch (err) {
    if (err instanceof JoseError) throw invalidDpopProof(`Failed to verify DPoP proof: ${err.message}`);
    throw err;
  }
}

/**
 * Checks the request's DPoP proof (RFC 9449 4.3) in the reference server's order: a single ES256
 * `dpop+jwt` with its public key embedded, fresh `iat`, `jti`, `htm`, `htu`, then the server's
 * nonce (missing or stale: `use_dpop_nonce`), `ath` when an access token comes along, and no replay.
 * Answers null when the request carries no DPoP header.
 */
export function checkDpopProof(
  req: Request,
  opts: { nonces: DpopNonces; replays: ReplaySet; nowMs: number; accessToken?: string },
): DpopProof | null {
  const header = req.headers.dpop;
  if (header === undefined) return null;
  if (Array.isArray(header) || header.includes(',')) throw invalidDpopProof('DPoP header must contain a single proof');
  if (!header) throw invalidDpopProof('DPoP header cannot be empty');
  const { payload, jkt } = verifiedProof(header, Math.floor(opts.nowMs / 1000));
  const { ath, htm, htu, jti, nonce } = payload;
  if (nonce !== undefined && typeof nonce !== 'string') throw invalidDpopProof('Invalid DPoP "nonce" type');
  if (!jti || typeof jti !== 'string') throw invalidDpopProof('DPoP "jti" missing');
  if (!htm || htm !== req.method) throw invalidDpopProof('DPoP "htm" mismatch');
  if (!htu || typeof htu !== 'string') throw invalidDpopProof('Invalid DPoP "htu" type');
  if (parseHtu(htu) !== htuOf(requestUrl(req))) throw invalidDpopProof('DPoP "htu" mismatch');
  if (!nonce) throw useDpopNonce();
  if (!opts.nonces.check(nonce)) throw useDpopNonce('DPoP "nonce" mismatch');
  if (opts.accessToken !== undefined) {
    if (ath !== sha256Base64url(opts.accessToken)) throw invalidDpopProof('DPoP "ath" mismatch');
  } else if (ath !== undefined) throw invalidDpopProof('DPoP "ath" claim not allowed');
  const windowMs = Math.ceil((LIFETIMES.dpopToleranceSec * 1000 + LIFETIMES.dpopMaxAgeSec * 1000) * 1.1);
  if (!opts.replays.unique(`DPoP ${jti}`, windowMs)) throw invalidDpopProof('DPoP proof replayed');
  return { jti, jkt };
}
