import type { McpToken } from '@postbus/contracts';
import type { ApiKeyRepository } from '../keys/api-key.repository';
import { verifyApiKey } from '../keys/verify-key.use-case';
import type { McpJwt } from './mcp-jwt';

/**
 * Deprecated: an API key → a short-lived JWT for the agent endpoint. The key is verified exactly as
 * for REST (missing, invalid, revoked, disabled, plan); the JWT stands for that key.
 */
export async function exchangeKeyForToken(
  keys: Pick<ApiKeyRepository, 'findWithOwner' | 'markUsed'>,
  jwt: McpJwt,
  apiKey: string,
  now = new Date(),
): Promise<McpToken> {
  const principal = await verifyApiKey(keys, apiKey, now);
  const { token, expiresAt } = await jwt.sign(
    { userId: principal.userId, accountId: principal.accountId, keyId: principal.credential.id },
    now,
  );
  return { token, tokenType: 'Bearer', expiresIn: jwt.ttlSeconds, expiresAt: expiresAt.toISOString() };
}
