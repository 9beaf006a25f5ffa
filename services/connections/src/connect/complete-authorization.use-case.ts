import { isPlatform, type Platform } from '@postbus/contracts';
import { PLATFORM_NAMES, isPlatformError, type PlatformAccount } from '@postbus/platforms';
import type { ConnectionRequestRow } from './connection-request.repository';
import { AUTHORIZATION_WINDOW_MS, redirectUriFor, type ConnectPorts } from './connect.ports';
import { finishConnection, type HandoffOutcome } from './finish-connection';
import { hashSecret, sameSecret } from './handoff-secrets';
import { missingScopeReason } from './required-scopes';
import { sealedAt } from '../vault/token-vault';
import { oauthClientOf } from '../platforms/platform-clients';
import { mastodonAccountFor } from './start-mastodon-authorization.use-case';
import { blueskyOAuthAccountFor } from './start-bluesky-sign-in.use-case';

export interface CallbackInput {
  platform: string;
  state?: string;
  code?: string;
  error?: string;
  errorDescription?: string;
  /** The authorization server that answered (atproto OAuth sends it: https://atproto.com/specs/oauth#authorization-request). */
  iss?: string;
  /** The binding cookie set when the link was used. */
  browserBinding?: string;
}

/**
 * The platform's redirect back: checks that it answers a request this browser started, exchanges
 * the code, reads the account(s) the grant reaches and stores the profile — or asks the person to
 * choose when the grant reaches several (Facebook Pages, YouTube channels). Any failure ends the
 * request as failed with a reason; a callback that matches no request changes nothing.
 */
export async function completeAuthorization(ports: ConnectPorts, input: CallbackInput): Promise<HandoffOutcome> {
  const found = await pendingRequest(ports, input.platform, input.state, input.browserBinding);
  if ('kind' in found) return found;
  const { request, platform } = found;
  const name = PLATFORM_NAMES[platform];
  const fail = (reason: string) => failRequest(ports, request, platform, reason);

  if (input.error) {
    const declined = input.error === 'access_denied';
    return fail(
      declined
        ? `The ${name} authorization was declined.`
        : `${name} answered ${input.error}${input.errorDescription ? `: ${input.errorDescription}` : ''}.`,
    );
  }
  if (!input.code) return fail(`${name} sent no authorization code.`);

  let accounts: PlatformAccount[];
  try {
    if (platform === 'mastodon') {
      // Mastodon: the code is traded on the instance the person named, with Postbus's app there.
      const account = await mastodonAccountFor(ports, request, input.code);
      const lacking = missingScopeReason(platform, account.scopes ?? []);
      return lacking ? fail(lacking) : finishConnection(ports, request, platform, account);
    }
    if (platform === 'bluesky') {
      // Bluesky through OAuth: the code is traded at the authorization server the sign-in found, with the session's DPoP key.
      const account = await blueskyOAuthAccountFor(ports, request, {
        code: input.code,
        state: input.state,
        iss: input.iss,
      });
      return finishConnection(ports, request, platform, account);
    }
    const client = oauthClientOf(ports.clients, platform);
    if (!client) return fail(`${name} is not connected through a sign-in redirect.`);
    const codeVerifier =
      ports.vault.openOrNull(request.code_verifier_enc, sealedAt(request.id, 'code_verifier_enc')) ?? undefined;
    const tokens = await client.exchangeCode({
      code: input.code,
      redirectUri: redirectUriFor(ports.baseUrl, platform),
      codeVerifier,
    });
    const lacking = missingScopeReason(platform, tokens.scopes);
    if (lacking) return fail(lacking);
    // The grant's scopes go with each account it reaches: the health report compares them with what publishing needs.
    accounts = (await client.listAccounts(tokens)).map((a) => ({
      ...a,
      scopes: a.scopes ?? (tokens.scopes.length ? tokens.scopes : undefined),
    }));
  } catch (err) {
    if (isPlatformError(err)) return fail(err.message);
    throw err;
  }
  if (!accounts.length) {
    const what =
      platform === 'facebook'
        ? 'no Facebook Page you may post to was granted'
        : platform === 'youtube'
          ? 'the Google account has no YouTube channel'
          : `${name} named no account`;
    return fail(`Nothing to connect: ${what}.`);
  }
  if (accounts.length === 1) return finishConnection(ports, request, platform, accounts[0]);

  await ports.requests.awaitChoice(
    request.id,
    ports.vault.seal(JSON.stringify(accounts), sealedAt(request.id, 'grant_enc')),
    accounts.map(choiceOf),
  );
  return { kind: 'choose', platform, state: input.state!, choices: accounts.map(choiceOf) };
}

/** The person picked one of the accounts the grant reaches. */
export async function chooseAccount(
  ports: ConnectPorts,
  input: { platform: string; state?: string; platformUserId?: string; browserBinding?: string },
): Promise<HandoffOutcome> {
  const found = await pendingRequest(ports, input.platform, input.state, input.browserBinding);
  if ('kind' in found) return found;
  const { request, platform } = found;
  if (!request.grant_enc) return { kind: 'invalid', reason: 'There is nothing to choose for this connection.' };
  const accounts = (
    JSON.parse(ports.vault.open(request.grant_enc, sealedAt(request.id, 'grant_enc'))) as PlatformAccount[]
  ).map(revive);
  const account = accounts.find((a) => a.platformUserId === input.platformUserId);
  if (!account) return { kind: 'invalid', reason: 'Choose one of the listed accounts.' };
  return finishConnection(ports, request, platform, account);
}

async function pendingRequest(
  ports: ConnectPorts,
  platformParam: string,
  state: string | undefined,
  binding: string | undefined,
): Promise<{ request: ConnectionRequestRow; platform: Platform } | HandoffOutcome> {
  if (!isPlatform(platformParam) || !state)
    return { kind: 'invalid', reason: 'This page was opened without a valid sign-in answer.' };
  const request = await ports.requests.findByState(hashSecret(state));
  if (!request || request.platform !== platformParam)
    return { kind: 'invalid', reason: 'This sign-in answer does not belong to any connection request.' };
  if (!binding || !sameSecret(hashSecret(binding), request.browser_hash ?? undefined)) {
    return { kind: 'invalid', reason: 'Finish the connection in the browser where the connection link was opened.' };
  }
  const platform = platformParam;
  if (request.status === 'completed')
    return {
      kind: 'invalid',
      reason: 'This connection was already completed; this sign-in answer cannot be used again.',
    };
  if (request.status === 'failed')
    return { kind: 'failed', platform, reason: request.failure_reason ?? 'This connection request failed.' };
  const openedAt = request.opened_at ? new Date(request.opened_at).getTime() : 0;
  if (ports.clock().getTime() - openedAt > AUTHORIZATION_WINDOW_MS) {
    return failRequest(
      ports,
      request,
      platform,
      `The ${PLATFORM_NAMES[platform]} sign-in took longer than ${AUTHORIZATION_WINDOW_MS / 60_000} minutes.`,
    );
  }
  return { request, platform };
}

async function failRequest(
  ports: Pick<ConnectPorts, 'requests'>,
  request: ConnectionRequestRow,
  platform: Platform,
  reason: string,
): Promise<HandoffOutcome> {
  await ports.requests.fail(request.id, reason);
  return { kind: 'failed', platform, reason };
}

function choiceOf(a: PlatformAccount) {
  return {
    platformUserId: a.platformUserId,
    handle: a.handle,
    displayName: a.displayName,
    profileImageUrl: a.profileImageUrl,
  };
}

function revive(a: PlatformAccount): PlatformAccount {
  const expiresAt = a.credentials.expiresAt;
  return { ...a, credentials: { ...a.credentials, expiresAt: expiresAt ? new Date(expiresAt) : null } };
}
