import { OutboxRelay } from '@postbus/bus';
import { databaseOf, runMain } from '@postbus/kit';
import { bootService, listen } from '@postbus/service';
import { AccountRepository } from './accounts/account.repository';
import { OWASP_SCRYPT, PasswordHasher } from './accounts/password';
import { readConfig } from './config';
import { createHttpApp } from './entry-points/http';
import { profilesOf } from './entry-points/profiles';
import { calendarPostsOf } from './entry-points/pages/calendar-posts';
import { registerRpc } from './entry-points/rpc';
import { registerSummariesRpc } from './entry-points/summaries-rpc';
import { ApiKeyRepository } from './keys/api-key.repository';
import { issueApiKey } from './keys/issue-key.use-case';
import { revokeApiKey } from './keys/revoke-key.use-case';
import { exchangeKeyForToken } from './legacy/exchange-key.use-case';
import { McpJwt } from './legacy/mcp-jwt';
import { migrations } from './migrations';
import { AuthorizationServer } from './oauth/authorization-server';
import { ClientDirectory } from './oauth/client-directory';
import { ClientMetadataDocuments } from './oauth/client-metadata-documents';
import { ClientRepository } from './oauth/client.repository';
import { GrantRepository } from './oauth/grant.repository';
import { SessionRepository } from './sessions/session.repository';
import { SignInBackoff } from './sessions/sign-in-backoff.repository';

export async function start(env?: Record<string, string | undefined>) {
  const config = readConfig(env);
  const svc = await bootService({ name: 'auth', config, schema: 'auth', migrations });
  const ds = svc.ds!;
  const db = databaseOf(ds);
  const passwords = new PasswordHasher({ ...OWASP_SCRYPT, N: config.PASSWORD_SCRYPT_N });
  const accounts = new AccountRepository(ds, config.TRIAL_DAYS, passwords);
  const keys = new ApiKeyRepository(ds);
  const sessions = new SessionRepository(ds, config.SESSION_TTL_HOURS * 3_600_000);
  const backoff = new SignInBackoff(ds, {
    freeFailures: config.SIGN_IN_FREE_FAILURES,
    firstLockMs: config.SIGN_IN_FIRST_LOCK_SECONDS * 1000,
    maxLockMs: config.SIGN_IN_MAX_LOCK_SECONDS * 1000,
  });
  const relay = new OutboxRelay(ds, svc.bus.events, svc.logger.child({ module: 'outbox' }));
  const announced = () => relay.kick();

  // The OAuth 2.1 authorization server: {base_url} is the issuer, the agent endpoint the one resource.
  const issuer = config.PUBLIC_BASE_URL;
  const resources = [`${issuer}/api/mcp`];
  const registeredClients = new ClientRepository(ds);
  const documents = new ClientMetadataDocuments({
    allowLoopback: config.OAUTH_CIMD_ALLOW_LOOPBACK,
    timeoutMs: config.OAUTH_CIMD_TIMEOUT_MS,
    maxBytes: config.OAUTH_CIMD_MAX_BYTES,
    cacheSeconds: config.OAUTH_CIMD_CACHE_SECONDS,
  });
  const clients = new ClientDirectory(registeredClients, documents);
  const grants = new GrantRepository(ds, announced);
  const oauthLogger = svc.logger.child({ module: 'oauth' });
  const server = new AuthorizationServer(
    { clients, grants, logger: oauthLogger, grantMaxMs: config.OAUTH_GRANT_MAX_DAYS * 86_400_000 },
    {
      issuer,
      codeTtlSeconds: config.OAUTH_CODE_TTL_SECONDS,
      accessTokenTtlSeconds: config.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlSeconds: config.OAUTH_REFRESH_TOKEN_TTL_DAYS * 86_400,
    },
  );
  const mcpJwt = new McpJwt(config.AUTH_JWT_SECRET, issuer, resources[0], config.MCP_TOKEN_TTL_SECONDS);

  registerRpc(svc.rpc, { db, accounts, keys, config, announced, grants, mcpJwt });
  registerSummariesRpc(svc.rpc, { accounts, keys, grants, config, client: svc.bus.rpc });
  const app = createHttpApp({
    accounts,
    passwords,
    sessions,
    keys,
    backoff,
    grants,
    config,
    logger: svc.logger.child({ module: 'pages' }),
    issueKey: (input) => issueApiKey(keys, input),
    revokeKey: (keyId, accountId) => revokeApiKey({ db, keys, announced }, keyId, accountId),
    listProfiles: profilesOf(svc.bus.rpc, svc.logger),
    calendarPosts: calendarPostsOf(svc.bus.rpc),
    oauth: {
      issuer,
      resources,
      server,
      clients,
      registeredClients,
      grants,
      logger: oauthLogger,
      exchangeKey: (apiKey) => exchangeKeyForToken(keys, mcpJwt, apiKey),
    },
  });

  relay.start();
  svc.lifecycle.onStop('relay', () => relay.stop());
  await svc.rpc.start();
  const http = await listen(app, svc.lifecycle, { port: config.AUTH_HTTP_PORT, host: config.HOST, name: 'auth-http' });
  svc.logger.info('auth started', { url: http.url });
  return { ...svc, httpUrl: http.url };
}

if (require.main === module) runMain(start);
