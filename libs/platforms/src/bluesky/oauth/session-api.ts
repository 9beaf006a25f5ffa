import type { BlueskyApiOptions } from '../api';
import { DpopSigner, asPrivateJwk } from './dpop';
import { netFetch, type BlueskyNetAccess } from './net-fetch';

/** A profile's credentials as connections hands them out: an OAuth profile adds its PDS and its DPoP key. */
export interface BlueskyCredentialsLike {
  accessToken: string;
  serviceUrl?: string;
  dpopJwk?: Record<string, string>;
}

/** Bytes of an XRPC answer read at most (as callXrpc's own bound). */
const XRPC_ANSWER_MAX_BYTES = 1024 * 1024;
const signers = new WeakMap<object, DpopSigner>();

/**
 * The XRPC options for a profile: an OAuth profile is served by the PDS its DID names, with its
 * DPoP-bound token (https://atproto.com/specs/oauth#demonstrating-proof-of-possession-dpop), each
 * call through @postbus/net since that address came from outside; an app-password profile is
 * served by the configured service with its Bearer session, as always. One signer per credentials
 * object keeps the PDS's nonce from call to call.
 */
export function blueskyApiFor(
  creds: BlueskyCredentialsLike,
  base: { serviceUrl: string; timeoutMs: number; access: BlueskyNetAccess },
): BlueskyApiOptions {
  if (!creds.serviceUrl || !creds.dpopJwk)
    return { serviceUrl: base.serviceUrl, accessJwt: creds.accessToken, timeoutMs: base.timeoutMs };
  let signer = signers.get(creds);
  if (!signer) {
    signer = new DpopSigner(asPrivateJwk(creds.dpopJwk));
    signers.set(creds, signer);
  }
  return {
    serviceUrl: creds.serviceUrl,
    accessJwt: creds.accessToken,
    timeoutMs: base.timeoutMs,
    dpop: signer,
    // The configured service's origin is the operator's (a self-hosted PDS, the sandbox): trusted like BLUESKY_SERVICE_URL itself.
    fetchImpl: netFetch(
      { ...base.access, trustedOrigins: [...(base.access.trustedOrigins ?? []), new URL(base.serviceUrl).origin] },
      { timeoutMs: base.timeoutMs, maxBytes: XRPC_ANSWER_MAX_BYTES },
    ),
  };
}
