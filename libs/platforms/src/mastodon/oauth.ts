import { PlatformError } from '../errors';
import {
  callMastodon,
  mastodonBaseUrl,
  MASTODON_PLATFORM,
  type MastodonApiOptions,
  type MastodonInstances,
} from './api';

/**
 * What Postbus asks of a Mastodon account (https://docs.joinmastodon.org/api/oauth-scopes/): post
 * statuses, upload media, read who it is, read its statuses' counts (analytics; a token sent to
 * `GET /api/v1/statuses/:id` must hold read:statuses) and read its mentions (auto-replies).
 */
export const MASTODON_SCOPES = [
  'write:statuses',
  'write:media',
  'read:accounts',
  'read:statuses',
  'read:notifications',
] as const;

export interface MastodonApp {
  clientId: string;
  clientSecret: string;
}

/**
 * Registers Postbus as an application on one instance (https://docs.joinmastodon.org/methods/apps/#create);
 * each instance has its own apps, so this happens once per instance and the answer is kept.
 */
export async function registerMastodonApp(
  api: Omit<MastodonApiOptions, 'accessToken'>,
  app: { clientName: string; redirectUri: string; website?: string },
): Promise<MastodonApp> {
  const { body } = await callMastodon<{ client_id?: string; client_secret?: string }>(api, {
    method: 'POST',
    path: '/api/v1/apps',
    form: {
      client_name: app.clientName,
      redirect_uris: app.redirectUri,
      scopes: MASTODON_SCOPES.join(' '),
      website: app.website,
    },
  });
  if (!body.client_id || !body.client_secret)
    throw new PlatformError('The Mastodon instance answered an app registration without its client id and secret.', {
      platform: MASTODON_PLATFORM,
      transient: true,
      code: 'invalid_answer',
    });
  return { clientId: body.client_id, clientSecret: body.client_secret };
}

/** The consent page on the instance (https://docs.joinmastodon.org/methods/oauth/#authorize), with PKCE S256 (Mastodon 4.3+). */
export function mastodonAuthorizeUrl(
  instances: MastodonInstances,
  instance: string,
  p: { clientId: string; redirectUri: string; state: string; codeChallenge?: string },
): string {
  const url = new URL(`${mastodonBaseUrl(instances, instance)}/oauth/authorize`);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', p.clientId);
  url.searchParams.set('redirect_uri', p.redirectUri);
  url.searchParams.set('scope', MASTODON_SCOPES.join(' '));
  url.searchParams.set('state', p.state);
  if (p.codeChallenge) {
    url.searchParams.set('code_challenge', p.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
  }
  return url.toString();
}

/** Trades the callback's code for a token (https://docs.joinmastodon.org/methods/oauth/#token); Mastodon tokens do not expire unless revoked. */
export async function exchangeMastodonCode(
  api: Omit<MastodonApiOptions, 'accessToken'>,
  app: MastodonApp,
  p: { code: string; redirectUri: string; codeVerifier?: string },
): Promise<{ accessToken: string; scope: string }> {
  const { body } = await callMastodon<{ access_token?: string; scope?: string }>(api, {
    method: 'POST',
    path: '/oauth/token',
    form: {
      grant_type: 'authorization_code',
      code: p.code,
      client_id: app.clientId,
      client_secret: app.clientSecret,
      redirect_uri: p.redirectUri,
      scope: MASTODON_SCOPES.join(' '),
      code_verifier: p.codeVerifier,
    },
  });
  if (!body.access_token)
    throw new PlatformError('The Mastodon instance answered the code exchange without a token.', {
      platform: MASTODON_PLATFORM,
      transient: true,
      code: 'invalid_answer',
    });
  return { accessToken: body.access_token, scope: body.scope ?? '' };
}

export interface MastodonAccount {
  id: string;
  username: string;
  /** `username@instance`, the address other instances know the account by. */
  acct: string;
  displayName: string;
  url: string;
  avatar: string | null;
}

/** The account the token belongs to: https://docs.joinmastodon.org/methods/accounts/#verify_credentials */
export async function verifyMastodonCredentials(api: MastodonApiOptions): Promise<MastodonAccount> {
  const { body } = await callMastodon<Record<string, unknown>>(api, {
    method: 'GET',
    path: '/api/v1/accounts/verify_credentials',
  });
  if (typeof body.id !== 'string' || typeof body.username !== 'string')
    throw new PlatformError('The Mastodon instance answered without the account.', {
      platform: MASTODON_PLATFORM,
      transient: true,
      code: 'invalid_answer',
    });
  return {
    id: body.id,
    username: body.username,
    acct: `${body.username}@${api.instance}`,
    displayName: typeof body.display_name === 'string' && body.display_name ? body.display_name : body.username,
    url: typeof body.url === 'string' ? body.url : `https://${api.instance}/@${body.username}`,
    avatar: typeof body.avatar === 'string' ? body.avatar : null,
  };
}

/**
 * A Mastodon profile's platform user id: the account id with its instance (`{id}@{instance}`),
 * since account ids are only unique on their own instance. The publisher reads the instance back from it.
 */
export function mastodonUserId(instance: string, accountId: string): string {
  return `${accountId}@${instance}`;
}

export function parseMastodonUserId(platformUserId: string): { instance: string; accountId: string } {
  const at = platformUserId.indexOf('@');
  if (at <= 0)
    throw new PlatformError('The Mastodon profile does not name its instance; connect it again.', {
      platform: MASTODON_PLATFORM,
      transient: false,
      code: 'invalid_profile',
    });
  return { accountId: platformUserId.slice(0, at), instance: platformUserId.slice(at + 1) };
}
