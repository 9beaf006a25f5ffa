import type { AtprotoClient } from './oauth-clients';
import type { DpopProof } from './oauth-dpop';
import { asEcPublicJwk, checkTimes, decodeJws, JoseError, jwkThumbprint, verifyEs256 } from './oauth-jose';
import {
  AtprotoOAuthError,
  invalidDpopProof,
  invalidGrant,
  invalidRequest,
  LIFETIMES,
  type BlueskyOAuthStore,
  type ClientAuth,
} from './oauth-store';

export const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const invalidClient = (description: string) => new AtprotoOAuthError('invalid_client', description);

/** The assertion's key from the client's JWK set: by `kid`, an EC P-256 key for ES256. */
function assertionKey(client: AtprotoClient, kid: unknown) {
  const candidates = client.keys.filter((k) => (kid === undefined || k.kid === kid) && k.kty === 'EC');
  if (candidates.length !== 1) throw new JoseError('no applicable key found in the JSON Web Key Set');
  return asEcPublicJwk(candidates[0]);
}

/**
 * RFC 7523 client authentication, as the reference server checks it: signed by a key of the client's
 * JWK set with the algorithm its metadata names, `iss` and `sub` the client id, `aud` the issuer,
 * `jti` present, `iat` within the last minute, and a `kid` header.
 */
function verifyAssertion(client: AtprotoClient, assertion: string, issuer: string, nowSec: number) {
  let header: Record<string, unknown>;
  let payload: Record<string, unknown>;
  let jkt: string;
  try {
    const jws = decodeJws(assertion);
    ({ header, payload } = jws);
    if (header.alg !== client.metadata.token_endpoint_auth_signing_alg)
      throw new JoseError('"alg" (Algorithm) Header Parameter value not allowed');
    const key = assertionKey(client, header.kid);
    verifyEs256(jws, key);
    jkt = jwkThumbprint(key);
    if (payload.iss !== client.id) throw new JoseError('unexpected "iss" claim value');
    if (payload.sub !== client.id) throw new JoseError('unexpected "sub" claim value');
    const aud = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if (!aud.includes(issuer)) throw new JoseError('unexpected "aud" claim value');
    if (typeof payload.jti !== 'string') throw new JoseError('missing required "jti" claim');
    checkTimes(payload, nowSec, LIFETIMES.assertionMaxAgeSec);
  } catch (err) {
    if (err instanceof JoseError) throw invalidClient(`Validation of "client_assertion" failed: ${err.message}`);
    throw err;
  }
  if (typeof header.kid !== 'string' || !header.kid) throw invalidClient('"kid" required in client_assertion');
  return { kid: header.kid, jkt, jti: payload.jti, exp: payload.exp as number | undefined };
}

/**
 * Authenticates the client of a PAR or token request (OAuthProvider.authenticateClient): DPoP is
 * required of every atproto client; a confidential client proves itself with a fresh private_key_jwt
 * assertion, never signed with its DPoP key and never used twice.
 */
export function authenticateClient(
  store: BlueskyOAuthStore,
  client: AtprotoClient,
  body: Record<string, string>,
  proof: DpopProof | null,
  ctx: { issuer: string; nowMs: number; allowMissingDpop?: boolean },
): ClientAuth {
  if (!proof && !ctx.allowMissingDpop) throw invalidDpopProof('DPoP proof required');
  if (client.metadata.token_endpoint_auth_method === 'none') return { method: 'none' };
  if (body.client_assertion === undefined)
    throw invalidRequest('client authentication method "private_key_jwt" required a "client_assertion"');
  if (body.client_assertion_type !== JWT_BEARER)
    throw invalidClient(`Unsupported client_assertion_type "${body.client_assertion_type}"`);
  const auth = verifyAssertion(client, body.client_assertion, ctx.issuer, Math.floor(ctx.nowMs / 1000));
  if (proof && auth.jkt === proof.jkt)
    throw invalidRequest('The DPoP proof must be signed with a different key than the client assertion');
  const ttl = auth.exp !== undefined ? auth.exp * 1000 - ctx.nowMs : LIFETIMES.assertionMaxAgeSec * 1100;
  if (!store.replays.unique(`Auth@${client.id} ${auth.jti}`, Math.max(ttl, 1)))
    throw invalidGrant('private_key_jwt jti reused');
  return { method: 'private_key_jwt', kid: auth.kid, jkt: auth.jkt };
}

/** The token request's client must be the one the session started with, authenticated the same way and with the same DPoP key. */
export function compareClientAuth(
  client: AtprotoClient,
  auth: ClientAuth,
  proof: DpopProof | null,
  initial: { clientId: string; clientAuth: ClientAuth; dpopJkt: string },
): void {
  if (auth.method !== client.metadata.token_endpoint_auth_method)
    throw invalidGrant(
      `Client authentication method mismatch (expected ${client.metadata.token_endpoint_auth_method}, got ${auth.method})`,
    );
  if (initial.clientId !== client.id) throw invalidGrant('Token was not issued to this client');
  if (!proof) throw invalidGrant('DPoP proof is required for this request');
  if (initial.dpopJkt !== proof.jkt) throw invalidGrant('DPoP proof does not match the expected JKT');
  if (initial.clientAuth.method === 'private_key_jwt') {
    if (auth.method !== 'private_key_jwt')
      throw invalidGrant(`Client authentication method mismatch (expected ${initial.clientAuth.method})`);
    if (auth.kid !== initial.clientAuth.kid || auth.jkt !== initial.clientAuth.jkt)
      throw invalidGrant('The session was initiated with a different key than the client assertion currently used');
  }
}
