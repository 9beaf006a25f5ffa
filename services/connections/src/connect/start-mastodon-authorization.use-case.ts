import {
  createPkcePair,
  isPlatformError,
  MASTODON_SCOPES,
  PlatformError,
  type PlatformAccount,
} from '@postbus/platforms';
import type { ConnectionRequestRow } from './connection-request.repository';
import { redirectUriFor, type ConnectPorts } from './connect.ports';
import { hashSecret, randomSecret } from './handoff-secrets';
import { MastodonAppRepository } from './mastodon-apps.repository';
import { inspectLink, type LinkProblem } from './start-authorization.use-case';
import { sealedAt } from '../vault/token-vault';

export type MastodonStart =
  | { kind: 'redirect'; authorizeUrl: string; browserBinding: string }
  | { kind: 'link'; problem: LinkProblem }
  /** Nothing was used: the person corrects the instance on the same link. */
  | { kind: 'retype'; reason: string; instance: string };

/**
 * Mastodon's handoff: the person names their instance on the handoff page; Postbus's app on that
 * instance is found or registered (POST /api/v1/apps, kept per instance), then the link is used
 * once like any OAuth platform's (state, browser binding, PKCE) and the instance is remembered on
 * the request for the callback. An instance that cannot be reached or refuses the app leaves the
 * link unused, so the person can correct the address.
 */
export async function startMastodonAuthorization(
  ports: ConnectPorts,
  requestId: string,
  typed: string,
): Promise<MastodonStart> {
  const client = ports.clients.mastodon;
  const instance = client.hostOf(typed);
  if (!instance)
    return {
      kind: 'retype',
      reason: 'Enter the address of your Mastodon server, such as mastodon.social.',
      instance: typed.slice(0, 200),
    };
  const link = await inspectLink(ports, requestId);
  if (!link.ok) return { kind: 'link', problem: link.problem };
  if (link.platform !== 'mastodon') return { kind: 'link', problem: 'unknown' };

  const redirectUri = redirectUriFor(ports.baseUrl, 'mastodon');
  const apps = new MastodonAppRepository(ports.db, ports.vault);
  const scopes = MASTODON_SCOPES.join(' ');
  let app = await apps.find(instance, redirectUri, scopes);
  if (!app) {
    try {
      app = await client.registerApp(instance, redirectUri);
    } catch (err) {
      if (isPlatformError(err))
        return { kind: 'retype', reason: `${instance} did not register Postbus: ${err.message}`, instance };
      throw err;
    }
    await apps.save(instance, redirectUri, app, scopes);
  }

  const state = randomSecret();
  const browserBinding = randomSecret();
  const pkce = createPkcePair();
  const claimed = await ports.requests.claim(requestId, {
    stateHash: hashSecret(state),
    browserHash: hashSecret(browserBinding),
    codeVerifierEnc: ports.vault.seal(pkce.verifier, sealedAt(requestId, 'code_verifier_enc')),
    now: ports.clock(),
    instance,
  });
  if (!claimed) return { kind: 'link', problem: 'used' };
  return {
    kind: 'redirect',
    authorizeUrl: client.authorizeUrl(instance, app, { redirectUri, state, codeChallenge: pkce.challenge }),
    browserBinding,
  };
}

/** The callback's code traded on the request's instance, and the account it reaches. */
export async function mastodonAccountFor(
  ports: ConnectPorts,
  request: ConnectionRequestRow,
  code: string,
): Promise<PlatformAccount> {
  const instance = request.instance;
  const redirectUri = redirectUriFor(ports.baseUrl, 'mastodon');
  const app = instance ? await new MastodonAppRepository(ports.db, ports.vault).find(instance, redirectUri) : undefined;
  if (!instance || !app)
    throw new PlatformError(
      'This Mastodon connection request names no instance Postbus is registered on; start again with a new link.',
      { platform: 'mastodon', transient: false, code: 'no_instance' },
    );
  const codeVerifier = ports.vault.open(request.code_verifier_enc ?? '', sealedAt(request.id, 'code_verifier_enc'));
  return ports.clients.mastodon.connect(instance, app, { code, redirectUri, codeVerifier });
}
