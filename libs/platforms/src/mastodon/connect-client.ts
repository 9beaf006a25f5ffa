import type { PlatformAccount, RefreshedCredentials, StoredCredentials } from '../oauth/oauth-client';
import { OAuthError } from '../oauth/oauth-error';
import { isPlatformError } from '../errors';
import { MASTODON_PLATFORM, mastodonInstanceHost, type MastodonInstances } from './api';
import {
  exchangeMastodonCode,
  mastodonAuthorizeUrl,
  mastodonUserId,
  registerMastodonApp,
  verifyMastodonCredentials,
  type MastodonApp,
} from './oauth';

/**
 * Mastodon accounts are connected per instance: Postbus registers itself as an app on the
 * instance the person names (once; the app is kept per host), then runs the authorization code
 * flow there with PKCE. Tokens do not expire unless the person or the instance revokes them, so
 * there is nothing to refresh: a refused token means reconnecting.
 */
export interface MastodonConnectClient {
  readonly platform: typeof MASTODON_PLATFORM;
  readonly rotatesRefreshToken: false;
  readonly instances: MastodonInstances;
  /** The instance host from what the person typed, or undefined when it is not one. */
  hostOf(input: string): string | undefined;
  registerApp(instance: string, redirectUri: string): Promise<MastodonApp>;
  authorizeUrl(
    instance: string,
    app: MastodonApp,
    p: { redirectUri: string; state: string; codeChallenge: string },
  ): string;
  /** Trades the code for a token and reads the account it belongs to. */
  connect(
    instance: string,
    app: MastodonApp,
    p: { code: string; redirectUri: string; codeVerifier: string },
  ): Promise<PlatformAccount>;
  refresh(stored: StoredCredentials): Promise<RefreshedCredentials>;
}

export function mastodonConnectClient(opts: {
  instances: MastodonInstances;
  clientName: string;
  website?: string;
  timeoutMs: number;
}): MastodonConnectClient {
  const api = (instance: string, accessToken?: string) => ({
    instances: opts.instances,
    instance,
    accessToken,
    timeoutMs: opts.timeoutMs,
  });
  return {
    platform: MASTODON_PLATFORM,
    rotatesRefreshToken: false,
    instances: opts.instances,
    hostOf: mastodonInstanceHost,
    // https://docs.joinmastodon.org/methods/apps/#create
    registerApp: (instance, redirectUri) =>
      asOAuthError(() =>
        registerMastodonApp(api(instance), { clientName: opts.clientName, redirectUri, website: opts.website }),
      ),
    // https://docs.joinmastodon.org/methods/oauth/#authorize
    authorizeUrl: (instance, app, p) =>
      mastodonAuthorizeUrl(opts.instances, instance, { clientId: app.clientId, ...p }),
    async connect(instance, app, p) {
      // https://docs.joinmastodon.org/methods/oauth/#token
      const { accessToken, scope } = await asOAuthError(() => exchangeMastodonCode(api(instance), app, p));
      // https://docs.joinmastodon.org/methods/accounts/#verify_credentials
      const account = await asOAuthError(() => verifyMastodonCredentials(api(instance, accessToken)));
      const platformUserId = mastodonUserId(instance, account.id);
      return {
        platformUserId,
        handle: account.acct,
        displayName: account.displayName,
        profileUrl: account.url,
        profileImageUrl: account.avatar,
        credentials: { platformUserId, accessToken, refreshToken: null, expiresAt: null },
        scopes: scope ? scope.split(/\s+/) : undefined,
      };
    },
    async refresh() {
      throw new OAuthError(
        'Mastodon tokens do not expire; the instance refused this one, so it was revoked: connect the account again.',
        { platform: MASTODON_PLATFORM, transient: false, tokenRefused: true, code: 'token_revoked' },
      );
    },
  };
}

async function asOAuthError<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof OAuthError || !isPlatformError(err)) throw err;
    throw new OAuthError(err.message, {
      platform: MASTODON_PLATFORM,
      transient: err.transient,
      tokenRefused: err.tokenRejected === true || err.status === 400 || err.status === 401,
      code: err.code,
      status: err.status,
      cause: err,
    });
  }
}
