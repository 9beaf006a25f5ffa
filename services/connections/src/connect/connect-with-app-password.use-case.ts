import { PLATFORM_NAMES, isPlatformError, type PlatformAccount } from '@postbus/platforms';
import type { ConnectPorts } from './connect.ports';
import { finishConnection, type HandoffOutcome } from './finish-connection';
import { hashSecret, randomSecret } from './handoff-secrets';
import { inspectLink, type LinkProblem } from './start-authorization.use-case';

export interface AppPasswordInput {
  /** The account's handle (alice.bsky.social) or DID. */
  identifier?: string;
  appPassword?: string;
}

/** A handle (a domain name, @ optional) or a did:plc / did:web identifier: https://atproto.com/specs/handle, https://atproto.com/specs/did */
const IDENTIFIER =
  /^(did:(plc|web):[a-zA-Z0-9._:%-]{1,2040}|@?([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)$/;

/**
 * Bluesky's handoff: the person types the account's handle and an app password on the handoff
 * page; the link is used once, the password is traded for a session with the account's PDS
 * (com.atproto.server.createSession) and dropped, and the session's tokens are stored sealed like
 * any platform's. A refused password ends the request with the PDS's reason, as a declined OAuth
 * consent does.
 */
export async function connectWithAppPassword(
  ports: ConnectPorts,
  requestId: string,
  input: AppPasswordInput,
): Promise<HandoffOutcome | { kind: 'link'; problem: LinkProblem } | { kind: 'retype'; reason: string }> {
  const identifier = input.identifier?.trim().replace(/^@/, '') ?? '';
  const appPassword = input.appPassword?.trim() ?? '';
  // A form filled in wrongly uses nothing: the person corrects it on the same link.
  if (!IDENTIFIER.test(identifier) || !appPassword)
    return {
      kind: 'retype',
      reason: 'Enter the account’s handle (such as alice.bsky.social) or DID, and an app password.',
    };

  const link = await inspectLink(ports, requestId);
  if (!link.ok) return { kind: 'link', problem: link.problem };
  if (link.platform !== 'bluesky') return { kind: 'invalid', reason: 'This connection link is not for Bluesky.' };
  // The state and browser hashes of an OAuth flow are not used here; random values keep the columns' meaning (nothing can match them).
  const claimed = await ports.requests.claim(requestId, {
    stateHash: hashSecret(randomSecret()),
    browserHash: hashSecret(randomSecret()),
    codeVerifierEnc: null,
    now: ports.clock(),
  });
  if (!claimed) return { kind: 'link', problem: 'used' };

  let account: PlatformAccount;
  try {
    account = await ports.clients.bluesky.signIn(identifier, appPassword);
  } catch (err) {
    if (!isPlatformError(err)) throw err;
    const reason = `${PLATFORM_NAMES.bluesky} did not sign in: ${err.message}`;
    await ports.requests.fail(requestId, reason);
    return { kind: 'failed', platform: 'bluesky', reason };
  }
  return finishConnection(ports, claimed, 'bluesky', account);
}
