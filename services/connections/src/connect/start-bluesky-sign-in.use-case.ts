import {
  PlatformError,
  blueskyOAuthAccount,
  finishBlueskyAuthorization,
  isPlatformError,
  startBlueskyAuthorization,
  type BlueskyCallbackParams,
  type BlueskyOAuthBinding,
  type PendingBlueskyAuthorization,
  type PlatformAccount,
} from '@postbus/platforms';
import type { ConnectionRequestRow } from './connection-request.repository';
import type { ConnectPorts } from './connect.ports';
import { hashSecret, randomSecret } from './handoff-secrets';
import { inspectLink, type LinkProblem } from './start-authorization.use-case';
import { sealedAt } from '../vault/token-vault';

export type BlueskySignInStart =
  | { kind: 'redirect'; authorizeUrl: string; browserBinding: string }
  | { kind: 'link'; problem: LinkProblem }
  /** Nothing was used: the person corrects the handle on the same link. */
  | { kind: 'retype'; reason: string };

/**
 * "Sign in with Bluesky": the person types their handle; Postbus finds the account's PDS and its
 * authorization server and pushes the authorization request there (PAR with PKCE and DPoP,
 * https://atproto.com/specs/oauth#authorization-request), then the link is used once like any
 * OAuth platform's. What the callback needs (PKCE verifier, the session's DPoP key, the issuer,
 * the DID and PDS) is sealed on the request. A handle that cannot be resolved, or a server that
 * breaks the profile's rules, leaves the link unused so the person can correct it.
 */
export async function startBlueskySignIn(
  ports: ConnectPorts,
  requestId: string,
  typed: string,
): Promise<BlueskySignInStart> {
  const options = ports.clients.blueskyOAuth;
  if (!options) return { kind: 'retype', reason: 'Signing in with Bluesky is not offered here; use an app password.' };
  const identifier = typed.trim();
  if (!identifier || identifier.length > 253)
    return { kind: 'retype', reason: 'Enter the account’s handle (such as alice.bsky.social) or DID.' };
  const link = await inspectLink(ports, requestId);
  if (!link.ok) return { kind: 'link', problem: link.problem };
  if (link.platform !== 'bluesky') return { kind: 'link', problem: 'unknown' };

  let started: Awaited<ReturnType<typeof startBlueskyAuthorization>>;
  try {
    started = await startBlueskyAuthorization(options, identifier);
  } catch (err) {
    if (isPlatformError(err)) return { kind: 'retype', reason: err.message };
    throw err;
  }
  const browserBinding = randomSecret();
  const claimed = await ports.requests.claim(requestId, {
    stateHash: hashSecret(started.pending.state),
    browserHash: hashSecret(browserBinding),
    codeVerifierEnc: ports.vault.seal(JSON.stringify(started.pending), sealedAt(requestId, 'code_verifier_enc')),
    now: ports.clock(),
  });
  if (!claimed) return { kind: 'link', problem: 'used' };
  return { kind: 'redirect', authorizeUrl: started.authorizeUrl, browserBinding };
}

/** The callback's code traded with the sign-in sealed on the request, and the account the session is for. */
export async function blueskyOAuthAccountFor(
  ports: ConnectPorts,
  request: ConnectionRequestRow,
  params: BlueskyCallbackParams,
): Promise<PlatformAccount & { oauth: BlueskyOAuthBinding }> {
  const options = ports.clients.blueskyOAuth;
  const sealed = request.code_verifier_enc;
  if (!options || !sealed)
    throw new PlatformError('This Bluesky connection request holds no sign-in; start again with a new link.', {
      platform: 'bluesky',
      transient: false,
      code: 'no_sign_in',
    });
  const pending = JSON.parse(
    ports.vault.open(sealed, sealedAt(request.id, 'code_verifier_enc')),
  ) as PendingBlueskyAuthorization;
  const session = await finishBlueskyAuthorization(options, pending, params);
  // https://atproto.com/specs/oauth#authorization-scopes: writing posts needs transition:generic.
  if (!session.scope.includes('transition:generic'))
    throw new PlatformError(
      'The Bluesky authorization did not grant transition:generic, which publishing needs. Connect again and approve it.',
      { platform: 'bluesky', transient: false, code: 'scope_missing' },
    );
  return blueskyOAuthAccount(session);
}
