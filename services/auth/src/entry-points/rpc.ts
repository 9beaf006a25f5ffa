import type { DataSource } from 'typeorm';
import { AppError, Rpc } from '@postbus/contracts';
import type { RpcServer } from '@postbus/bus';
import { toAccountSummary } from '../accounts/account-summary';
import { changeAccount, setUserDisabled } from '../accounts/change-account.use-case';
import { quotasFor } from '../accounts/plans';
import type { AccountRepository } from '../accounts/account.repository';
import type { AuthConfig } from '../config';
import type { ApiKeyRepository } from '../keys/api-key.repository';
import { issueApiKey } from '../keys/issue-key.use-case';
import { revokeApiKey } from '../keys/revoke-key.use-case';
import { verifyApiKey } from '../keys/verify-key.use-case';
import { exchangeKeyForToken } from '../legacy/exchange-key.use-case';
import { looksLikeJwt, type McpJwt } from '../legacy/mcp-jwt';
import { verifyMcpJwt } from '../legacy/verify-mcp-jwt.use-case';
import type { GrantRepository } from '../oauth/grant.repository';
import { verifyAccessToken } from '../oauth/verify-access-token.use-case';

export interface AuthRpcPorts {
  ds: DataSource;
  accounts: AccountRepository;
  keys: ApiKeyRepository;
  config: AuthConfig;
  /** Kicks the outbox relay after a revocation committed. */
  announced: () => void;
  grants: GrantRepository;
  mcpJwt: McpJwt;
}

export function registerRpc(rpc: RpcServer, ports: AuthRpcPorts): void {
  const { ds, accounts, keys, config } = ports;
  rpc.handle(Rpc.authVerifyKey, ({ token }) => verifyApiKey(ds, token, new Date(), (plan) => quotasFor(plan, config)));
  // An agent's bearer token: an OAuth access token, or a JWT from the deprecated key exchange.
  rpc.handle(Rpc.authVerifyAccessToken, ({ token, resource }) =>
    looksLikeJwt(token) ? verifyMcpJwt(ds, ports.mcpJwt, token, resource) : verifyAccessToken({ ds, grants: ports.grants, grantMaxMs: config.OAUTH_GRANT_MAX_DAYS * 86_400_000 }, token, resource),
  );
  rpc.handle(Rpc.authExchangeKey, ({ token }) => exchangeKeyForToken(ds, ports.mcpJwt, token));
  rpc.handle(Rpc.authCreateAccount, (input) => accounts.create(input));
  rpc.handle(Rpc.authIssueKey, (input) => issueApiKey(ds, input));
  rpc.handle(Rpc.authGetAccount, async (_input, { principal }) => {
    const a = await accounts.find(principal.accountId);
    if (!a) throw new AppError('api_access_disabled', 'The account no longer exists.');
    return toAccountSummary(a, config);
  });
  rpc.handle(Rpc.authUpdateAccount, async ({ accountId, ...changes }) => toAccountSummary(await changeAccount({ ds, accounts, announced: ports.announced }, accountId, changes), config));
  rpc.handle(Rpc.authUpdateUser, async ({ userId, disabled }) => {
    const u = await setUserDisabled({ ds, accounts, announced: ports.announced }, userId, disabled);
    return { userId: u.id, accountId: u.account_id, email: u.email, disabled: u.disabled };
  });
  rpc.handle(Rpc.authListKeys, async ({ accountId }) => ({ keys: await keys.listForAccount(accountId) }));
  rpc.handle(Rpc.authRevokeKey, ({ keyId, accountId }) => revokeApiKey({ ds, keys, announced: ports.announced }, keyId, accountId));
}
