import { Rpc } from '@postbus/contracts';
import type { RpcClient, RpcServer } from '@postbus/bus';
import type { AccountRepository } from '../accounts/account.repository';
import { quotasFor } from '../accounts/plans';
import type { AuthConfig } from '../config';
import type { ApiKeyRepository } from '../keys/api-key.repository';
import type { GrantRepository } from '../oauth/grant.repository';
import { getAccountOverview } from '../summaries/account-overview.use-case';
import { getBillingSummary } from '../summaries/billing-summary.use-case';
import type { SummariesPorts } from '../summaries/summaries.ports';

/** GET /api/v1/account and /billing: auth's figures with those connections, posts and media own, over RPC. */
export function registerSummariesRpc(
  rpc: RpcServer,
  deps: {
    accounts: AccountRepository;
    keys: ApiKeyRepository;
    grants: GrantRepository;
    config: AuthConfig;
    client: RpcClient;
  },
): void {
  const { client } = deps;
  const ports: SummariesPorts = {
    accounts: deps.accounts,
    keys: deps.keys,
    grants: deps.grants,
    quotasFor: (plan) => quotasFor(plan, deps.config),
    profileSummary: (principal) => client.call(Rpc.connectionsProfileSummary, {}, principal),
    postCounts: (principal) => client.call(Rpc.postsCountSummary, {}, principal),
    quotaUsage: (principal) => client.call(Rpc.postsQuotaUsage, {}, principal),
    storageUsage: (principal) => client.call(Rpc.mediaStorageUsage, {}, principal),
    clock: () => new Date(),
  };
  rpc.handle(Rpc.authAccountOverview, (_input, { principal }) => getAccountOverview(ports, principal));
  rpc.handle(Rpc.authBillingSummary, (_input, { principal }) => getBillingSummary(ports, principal));
}
