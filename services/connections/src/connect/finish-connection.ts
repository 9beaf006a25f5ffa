import { Events, type Platform } from '@postbus/contracts';
import { envelope, writeOutbox } from '@postbus/bus';
import type { BlueskyOAuthBinding, PlatformAccount } from '@postbus/platforms';
import { profileChanged } from '../profiles/profile-changed';
import { storeProfile } from '../profiles/store-profile';
import type { ConnectionRequestRow } from './connection-request.repository';
import type { ConnectPorts } from './connect.ports';

export type HandoffOutcome =
  | { kind: 'connected'; platform: Platform; handle: string; profileId: string; reconnected: boolean }
  | {
      kind: 'choose';
      platform: Platform;
      state: string;
      choices: { platformUserId: string; handle: string; displayName: string; profileImageUrl: string | null }[];
    }
  | { kind: 'failed'; platform: Platform; reason: string }
  /** Nothing was recorded: the callback does not belong to a request this browser started. */
  | { kind: 'invalid'; reason: string };

/**
 * Stores the account as a profile of the request's account (same id when it was connected before),
 * ends the request and announces connection.created, in one transaction.
 */
export async function finishConnection(
  ports: Pick<ConnectPorts, 'db' | 'profiles' | 'requests' | 'vault' | 'announced'>,
  request: ConnectionRequestRow,
  platform: Platform,
  account: PlatformAccount & { oauth?: BlueskyOAuthBinding },
): Promise<HandoffOutcome> {
  const result = await ports.db
    .transaction(async (m) => {
      const profile = await storeProfile(m, ports, {
        accountId: request.account_id,
        platform,
        platformUserId: account.platformUserId,
        handle: account.handle,
        profileUrl: account.profileUrl,
        profileImageUrl: account.profileImageUrl,
        accessToken: account.credentials.accessToken,
        refreshToken: account.credentials.refreshToken,
        tokenExpiresAt: account.credentials.expiresAt,
        grantedScopes: account.scopes ?? null,
        // Bluesky through OAuth: the session's DPoP key (sealed), its PDS and its issuer.
        ...(account.oauth && {
          dpopJwk: JSON.stringify(account.oauth.dpopJwk),
          pdsUrl: account.oauth.pdsUrl,
          oauthIssuer: account.oauth.issuer,
        }),
      });
      const finished = await ports.requests.finish(m, request.id, { status: 'completed', profileId: profile.id });
      if (!finished) throw new AlreadyFinished();
      await writeOutbox(m, [
        envelope(Events.connectionCreated, { profileId: profile.id, accountId: request.account_id, platform }),
        profileChanged(profile),
      ]);
      return profile;
    })
    .catch((err) => {
      if (err instanceof AlreadyFinished) return undefined;
      throw err;
    });
  if (!result) return { kind: 'invalid', reason: 'This connection request has already finished.' };
  ports.announced();
  return { kind: 'connected', platform, handle: result.handle, profileId: result.id, reconnected: !result.inserted };
}

class AlreadyFinished extends Error {}
