import { AppError, Rpc } from '@postbus/contracts';
import type { Database } from '@postbus/kit';
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
  db: Database;
  accounts: AccountRepository;
  keys: ApiKeyRepository;
  config: AuthConfig;
  /** Kicks the outbox relay after a revocation committed. */
  announced: () => void;
  grants: GrantRepository;
  mcpJwt: McpJwt;
}

export function registerRpc(rpc: RpcServer, ports: AuthRpcPorts): void {
  const { db, accounts, keys, config } = ports;
  rpc.handle(Rpc.authVerifyKey, ({ token }) =>
    verifyApiKey(keys, token, new Date(), (plan) => quotasFor(plan, config)),
  );
  // An agent's bearer token: an OAuth access token, or a JWT from the deprecated key exchange.
  rpc.handle(Rpc.authVerifyAccessToken, ({ token, resource }) =>
    looksLikeJwt(token)
      ? verifyMcpJwt({ keys, accounts }, ports.mcpJwt, token, resource)
      : verifyAccessToken(
          { accounts, grants: ports.grants, grantMaxMs: config.OAUTH_GRANT_MAX_DAYS * 86_400_000 },
          token,
          resource,
        ),
  );
  rpc.handle(Rpc.authExchangeKey, ({ token }) => exchangeKeyForToken(keys, ports.mcpJwt, token));
  rpc.handle(Rpc.authCreateAccount, (input) => accounts.create(input));
  rpc.handle(Rpc.authIssueKey, (input) => issueApiKey(keys, input));
  rpc.handle(Rpc.authGetAccount, async (_input, { principal }) => {
    const a = await accounts.find(principal.accountId);
    if (!a) throw new AppError('api_access_disabled', 'The account no longer exists.');
    return toAccountSummary(a, config);
  });
  rpc.handle(Rpc.authUpdateAccount, async ({ accountId, ...changes }) =>
    toAccountSummary(await changeAccount({ db, accounts, announced: ports.announced }, accountId, changes), config),
  );
  rpc.handle(Rpc.authUpdateUser, async ({ userId, disabled }) => {
    const u = await setUserDisabled({ db, accounts, announced: ports.announced }, userId, disabled);
    return { userId: u.id, accountId: u.account_id, email: u.email, disabled: u.disabled };
  });
  rpc.handle(Rpc.authListKeys, async ({ accountId }) => ({ keys: await keys.listForAccount(accountId) }));
  rpc.handle(Rpc.authRevokeKey, ({ keyId, accountId }) =>
    revokeApiKey({ db, keys, announced: ports.announced }, keyId, accountId),
  );
}
