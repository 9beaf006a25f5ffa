import { isPlatform, type Platform } from '@postbus/contracts';
import { createPkcePair } from '@postbus/platforms';
import { statusOf, type ConnectionRequestRow } from './connection-request.repository';
import { redirectUriFor, type ConnectPorts } from './connect.ports';
import { hashSecret, randomSecret } from './handoff-secrets';
import { sealedAt } from '../vault/token-vault';
import { oauthClientOf } from '../platforms/platform-clients';

/** Why a link cannot start a connection. */
export type LinkProblem = 'unknown' | 'expired' | 'used' | 'completed' | 'failed';

export type LinkState =
  | { ok: true; platform: Platform; request: ConnectionRequestRow }
  | { ok: false; problem: LinkProblem; platform?: Platform };

/** What opening the link finds: ready to start, or why not. Reading changes nothing (link previews are harmless). */
export async function inspectLink(
  ports: Pick<ConnectPorts, 'requests' | 'clock'>,
  requestId: string,
): Promise<LinkState> {
  const row = await ports.requests.find(requestId);
  if (!row || !isPlatform(row.platform)) return { ok: false, problem: 'unknown' };
  const platform = row.platform;
  const status = statusOf(row, ports.clock());
  if (status === 'completed' || status === 'failed' || status === 'expired')
    return { ok: false, problem: status, platform };
  if (row.opened_at) return { ok: false, problem: 'used', platform };
  return { ok: true, platform, request: row };
}

/**
 * Uses the link (once) and answers the platform's consent URL: a fresh `state` bound to the request,
 * a browser binding kept in a cookie, and a PKCE verifier where the platform takes PKCE. Only hashes
 * of the state and binding are stored; the verifier is sealed.
 */
export async function startAuthorization(
  ports: Pick<ConnectPorts, 'requests' | 'clock' | 'vault' | 'clients' | 'baseUrl'>,
  requestId: string,
): Promise<
  | { ok: true; authorizeUrl: string; browserBinding: string; platform: Platform }
  | { ok: false; problem: LinkProblem; platform?: Platform }
> {
  const link = await inspectLink(ports, requestId);
  if (!link.ok) return link;
  const client = oauthClientOf(ports.clients, link.platform);
  // A platform without OAuth consent (Bluesky) is connected through its own form, never redirected.
  if (!client) return { ok: false, problem: 'unknown', platform: link.platform };
  const state = randomSecret();
  const browserBinding = randomSecret();
  const pkce = client.pkce ? createPkcePair() : undefined;
  const claimed = await ports.requests.claim(requestId, {
    stateHash: hashSecret(state),
    browserHash: hashSecret(browserBinding),
    codeVerifierEnc: pkce ? ports.vault.seal(pkce.verifier, sealedAt(requestId, 'code_verifier_enc')) : null,
    now: ports.clock(),
  });
  if (!claimed) return { ok: false, problem: 'used', platform: link.platform };
  const authorizeUrl = client.authorizeUrl({
    redirectUri: redirectUriFor(ports.baseUrl, link.platform),
    state,
    codeChallenge: pkce?.challenge,
  });
  return { ok: true, authorizeUrl, browserBinding, platform: link.platform };
}
