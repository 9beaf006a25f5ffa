import { AppError, Rpc, type Profile, type RpcInput } from '@postbus/contracts';
import { writeOutbox, type RpcServer } from '@postbus/bus';
import { createConnectionRequest } from '../connect/create-connection-request.use-case';
import { getConnectionRequest } from '../connect/get-connection-request.use-case';
import { getConnectionHealth, type HealthPorts } from '../health/get-connection-health.use-case';
import type { ConnectPorts } from '../connect/connect.ports';
import { disconnectProfile } from '../profiles/disconnect-profile.use-case';
import { listConnectedAccounts } from '../profiles/list-connected-accounts.use-case';
import { toProfile } from '../profiles/profile.repository';
import { profileChanged } from '../profiles/profile-changed';
import { storeProfile } from '../profiles/store-profile';
import { getTikTokPostingOptions, type TikTokOptionsPorts } from '../tiktok/get-tiktok-posting-options.use-case';
import { listPinterestBoards, type PinterestBoardsPorts } from '../pinterest/list-pinterest-boards.use-case';
import { credentialsOf, refreshProfileToken, type RefreshPorts } from '../tokens/refresh-credentials.use-case';
import { rotateTokenKey } from '../vault/rotate-token-key.use-case';

export type RpcPorts = ConnectPorts & {
  refresh: RefreshPorts;
  tiktok: Pick<TikTokOptionsPorts, 'readCreatorInfo'>;
  pinterest: Pick<PinterestBoardsPorts, 'listBoards'>;
  health: HealthPorts;
};

/** One line per command: the RPC server has validated the input against its contract. */
export function registerRpc(rpc: RpcServer, ports: RpcPorts): void {
  const { profiles, vault } = ports;
  const refreshOnDemand = (profileId: string, accountId: string) =>
    refreshProfileToken(ports.refresh, { profileId, accountId }, 'demand');

  rpc.handle(Rpc.connectionsListProfiles, async (q, { principal }) => ({
    profiles: (await profiles.list(principal.accountId, q)).map(toProfile),
  }));
  rpc.handle(Rpc.connectionsListAccounts, (_input, { principal }) => listConnectedAccounts(profiles, principal));
  rpc.handle(Rpc.connectionsDisconnect, ({ id }, { principal }) => disconnectProfile(ports, principal, id));
  rpc.handle(Rpc.connectionsCreateRequest, ({ platform }, { principal }) =>
    createConnectionRequest(ports, principal, platform),
  );
  rpc.handle(Rpc.connectionsGetRequest, ({ requestId }, { principal }) =>
    getConnectionRequest(ports, principal, requestId),
  );
  rpc.handle(Rpc.connectionsTikTokOptions, ({ id }, { principal }) =>
    getTikTokPostingOptions(
      {
        profiles,
        vault,
        readCreatorInfo: ports.tiktok.readCreatorInfo,
        refresh: async (row) => (await refreshOnDemand(row.id, row.account_id))!,
      },
      principal,
      id,
    ),
  );
  rpc.handle(Rpc.connectionsPinterestBoards, ({ id }, { principal }) =>
    listPinterestBoards(
      {
        profiles,
        vault,
        listBoards: ports.pinterest.listBoards,
        refresh: async (row) => (await refreshOnDemand(row.id, row.account_id))!,
      },
      principal,
      id,
    ),
  );
  rpc.handle(Rpc.connectionsHealth, ({ id }, { principal }) => getConnectionHealth(ports.health, principal, id));

  rpc.handle(Rpc.connectionsGetCredentials, async ({ profileId, accountId }) => {
    const row = await profiles.find(accountId, profileId);
    if (!row) throw new AppError('not_found', `No profile ${profileId}.`);
    return credentialsOf(row, vault);
  });
  rpc.handle(Rpc.connectionsRefreshCredentials, async ({ profileId, accountId }) =>
    credentialsOf((await refreshOnDemand(profileId, accountId))!, vault),
  );

  rpc.handle(Rpc.connectionsSeedProfile, (p) => seedProfile(ports, p));

  rpc.handle(Rpc.connectionsRotateTokenKey, async ({ keyId }) => {
    if (keyId && keyId !== vault.currentKeyId) {
      throw new AppError(
        'validation_error',
        `This connections replica encrypts with key ${vault.currentKeyId}, not ${keyId}; restart every replica with the new TOKEN_KEY_ID first.`,
      );
    }
    return rotateTokenKey(ports);
  });
}

/** An operator's seeded profile (no connect flow), announced as a connected one is. */
async function seedProfile(ports: RpcPorts, p: RpcInput<typeof Rpc.connectionsSeedProfile>): Promise<Profile> {
  const row = await ports.db.transaction(async (m) => {
    const stored = await storeProfile(m, ports, {
      accountId: p.accountId,
      platform: p.platform,
      platformUserId: p.platformUserId,
      handle: p.handle,
      profileUrl: p.profileUrl ?? `https://www.${p.platform}.com/@${p.handle}`,
      profileImageUrl: null,
      accessToken: p.accessToken,
      refreshToken: null,
      tokenExpiresAt: null,
    });
    await writeOutbox(m, [profileChanged(stored)]);
    return stored;
  });
  ports.announced();
  return toProfile(row);
}
