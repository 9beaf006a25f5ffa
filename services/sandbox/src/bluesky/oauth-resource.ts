import type { Request, Response } from 'express';
import type { SandboxState } from '../state';
import { checkDpopProof } from './oauth-dpop';
import { verifyHs256 } from './oauth-jose';
import { AtprotoOAuthError, dpopChallenge, invalidDpopProof } from './oauth-store';
import { XrpcError } from './xrpc-http';

interface AccessClaims {
  sub: string;
  scope?: string;
  exp: number;
  cnf?: { jkt?: string };
}

/** The calls that write to the repository, which the token's scope must allow; reads (getSession) need only `atproto`. */
const WRITES = ['com.atproto.repo.createRecord', 'com.atproto.repo.uploadBlob'];

const invalidToken = (description: string) => new AtprotoOAuthError('invalid_token', description, 401, true);

/** The claims of an access token this authorization server issued; undefined for any other string. */
export function oauthAccessClaims(state: SandboxState, token: string): AccessClaims | undefined {
  const jws = verifyHs256(state.blueskyOAuth.tokenSecret, token);
  if (!jws || jws.header.typ !== 'at+jwt') return undefined;
  return jws.payload as unknown as AccessClaims;
}

/**
 * The `transition:generic` scope (or a granular repo:/blob: one) that a write needs: without it the
 * PDS answers 403 ScopeMissingError (https://atproto.com/specs/oauth#authorization-scopes).
 */
function assertWriteScope(req: Request, scopes: string[]): void {
  if (scopes.includes('transition:generic')) return;
  if (req.path.endsWith('/com.atproto.repo.uploadBlob')) {
    if (scopes.some((s) => s.startsWith('blob:'))) return;
    const mime = (req.get('content-type') ?? '*/*').split(';')[0].trim();
    throw new XrpcError(403, 'ScopeMissingError', `Missing required scope "blob:${mime}"`);
  }
  const collection = (req.body as { collection?: unknown } | undefined)?.collection;
  if (scopes.some((s) => s === 'repo:*' || s.startsWith(`repo:${String(collection)}`))) return;
  throw new XrpcError(403, 'ScopeMissingError', `Missing required scope "repo:${String(collection)}?action=create"`);
}

function verifyRequest(state: SandboxState, req: Request, token: string): AccessClaims {
  const store = state.blueskyOAuth;
  const proof = checkDpopProof(req, {
    nonces: store.resourceNonces,
    replays: store.replays,
    nowMs: state.now(),
    accessToken: token,
  });
  if (token.split('.').length !== 3) throw invalidToken('Malformed token');
  const claims = oauthAccessClaims(state, token);
  if (!claims) throw invalidToken('Invalid token');
  if (claims.cnf?.jkt) {
    if (!proof) throw invalidDpopProof('DPoP proof required');
    if (claims.cnf.jkt !== proof.jkt) throw invalidToken('Invalid DPoP key binding');
  }
  if (claims.exp * 1000 <= state.now())
    throw invalidToken(`Token expired at ${new Date(claims.exp * 1000).toISOString()}`);
  if (!claims.scope?.split(' ').includes('atproto')) throw invalidToken('Invalid scope');
  return claims;
}

/**
 * `Authorization: DPoP <token>` at the PDS (RFC 9449 7, as the reference PDS verifies it): the
 * proof against the token's key with `ath`, the resource server's own nonce (a 401
 * `WWW-Authenticate: DPoP error="use_dpop_nonce"` first), expiry and the `atproto` scope. Every
 * answer carries a fresh `DPoP-Nonce`. Answers the account's DID.
 */
export function dpopAuthedDid(state: SandboxState, req: Request, res: Response, token: string): string {
  res.set({
    'dpop-nonce': state.blueskyOAuth.resourceNonces.next(),
    'access-control-expose-headers': 'DPoP-Nonce, WWW-Authenticate',
  });
  let claims: AccessClaims;
  try {
    claims = verifyRequest(state, req, token);
  } catch (err) {
    if (!(err instanceof AtprotoOAuthError)) throw err;
    // The PDS turns every DPoP failure, a missing nonce included, into a 401 with its challenge.
    throw new XrpcError(401, err.error, err.description, {
      'www-authenticate': dpopChallenge(err.error, err.description),
    });
  }
  if (WRITES.some((nsid) => req.path.endsWith(`/${nsid}`))) assertWriteScope(req, claims.scope!.split(' '));
  return claims.sub;
}
