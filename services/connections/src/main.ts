import { OutboxRelay, type RpcClient } from '@postbus/bus';
import { Rpc, systemPrincipal } from '@postbus/contracts';
import { databaseOf, runMain } from '@postbus/kit';
import { queryTikTokCreatorInfo } from '@postbus/platforms';
import { bootService, listen } from '@postbus/service';
import { readConfig, type ConnectionsConfig } from './config';
import { startAbandonedFlowsJob } from './connect/abandoned-flows.job';
import { ConnectionRequestRepository } from './connect/connection-request.repository';
import { createHandoffApp } from './entry-points/http';
import { registerLookupRpc } from './entry-points/lookup-rpc';
import { registerRpc } from './entry-points/rpc';
import { registerSummariesRpc } from './entry-points/summaries-rpc';
import { migrations } from './migrations';
import { createPlatformClients, createQuotaReaders } from './platforms/platform-clients';
import { pinterestBoardsReader } from './pinterest/pinterest-boards.reader';
import type { WithdrawFromPosts } from './profiles/profile-changed';
import { ProfileRepository } from './profiles/profile.repository';
import { TokenRefresher } from './tokens/token-refresher';
import { upgradeUnboundTokens } from './vault/rotate-token-key.use-case';
import { vaultFromConfig } from './vault/token-vault';

export async function start(env?: Record<string, string | undefined>) {
  const config = readConfig(env);
  const svc = await bootService({ name: 'connections', config, schema: 'connections', migrations });
  const ds = svc.ds!;
  const db = databaseOf(ds);
  const vault = vaultFromConfig(config);
  const profiles = new ProfileRepository(ds);
  const requests = new ConnectionRequestRepository(ds);
  const clients = createPlatformClients(config);
  const relay = new OutboxRelay(ds, svc.bus.events, svc.logger.child({ module: 'outbox' }));
  const clock = () => new Date();
  // Before anything reads a token: readers refuse the unbound form of earlier versions.
  await upgradeUnboundTokens({ db, profiles, requests, vault }, svc.logger.child({ module: 'vault' }));

  const connect = {
    db,
    requests,
    profiles,
    vault,
    clients,
    clock,
    baseUrl: config.PUBLIC_BASE_URL,
    linkTtlSeconds: config.CONNECT_LINK_TTL_SECONDS,
    announced: () => relay.kick(),
    withdrawFromPosts: postsWithdrawal(svc.bus.rpc),
  };
  // The refresh use case's ports: the handoff's store, vault, clients and clock, and its own pauses.
  const refresh = {
    ...connect,
    logger: svc.logger.child({ module: 'tokens' }),
    retryDelaysMs: [250],
    recentMs: config.TOKEN_REFRESH_DEDUP_MS,
  };
  const { readCreatorInfo, ...reads } = platformReads(config);
  registerRpc(svc.rpc, {
    ...connect,
    refresh,
    ...reads,
    health: {
      profiles,
      vault,
      clock,
      aheadSeconds: config.TOKEN_REFRESH_AHEAD_SECONDS,
      tiktokAudited: config.TIKTOK_CLIENT_AUDITED,
      quotaReaders: createQuotaReaders(config),
      readCreatorInfo,
    },
  });
  registerLookupRpc(svc.rpc, profiles);
  registerSummariesRpc(svc.rpc, profiles);
  const http = await listen(createHandoffApp(connect, svc.logger.child({ module: 'handoff' })), svc.lifecycle, {
    port: config.CONNECTIONS_HTTP_PORT,
    host: config.CONNECTIONS_HTTP_HOST,
    name: 'connections-http',
  });
  const refresher = new TokenRefresher(
    { ...refresh, retryDelaysMs: [] },
    svc.logger.child({ module: 'token-refresher' }),
    { intervalMs: config.TOKEN_REFRESH_INTERVAL_MS, aheadSeconds: config.TOKEN_REFRESH_AHEAD_SECONDS },
  );

  await svc.rpc.start();
  relay.start();
  svc.metrics.trackOutbox(relay);
  refresher.start();
  const janitor = startAbandonedFlowsJob(
    requests,
    clock,
    svc.logger.child({ module: 'handoff' }),
    config.TOKEN_REFRESH_INTERVAL_MS,
  );
  svc.lifecycle.onStop('relay', () => relay.stop());
  svc.lifecycle.onStop('token refresher', () => refresher.stop());
  svc.lifecycle.onStop('abandoned sign-ins', () => janitor.stop());
  svc.logger.info('connections started', { url: http.url });
  return { ...svc, httpUrl: http.url };
}

/** posts.profiles.withdrawn on the account's behalf: posts hears of a profile leaving active before it commits. */
function postsWithdrawal(rpc: RpcClient): WithdrawFromPosts {
  return async ({ accountId, ...fact }) => {
    await rpc.call(Rpc.postsProfileWithdrawn, fact, systemPrincipal({ service: 'connections', accountId, scopes: [] }));
  };
}

/** What the RPC handlers read of a platform beyond tokens: TikTok's creator info, a Pinterest profile's boards. */
function platformReads(config: ConnectionsConfig) {
  const readCreatorInfo = (accessToken: string) =>
    queryTikTokCreatorInfo({ baseUrl: config.TIKTOK_API_URL, accessToken, timeoutMs: config.PLATFORM_HTTP_TIMEOUT_MS });
  return { readCreatorInfo, tiktok: { readCreatorInfo }, pinterest: { listBoards: pinterestBoardsReader(config) } };
}

if (require.main === module) runMain(start);
