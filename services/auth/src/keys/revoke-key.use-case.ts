import type { Database } from '@postbus/kit';
import { AppError, Events, type ApiKeySummary } from '@postbus/contracts';
import { envelope, writeOutbox } from '@postbus/bus';
import { toKeySummary, type ApiKeyRepository } from './api-key.repository';

export interface RevokeKeyPorts {
  db: Database;
  keys: ApiKeyRepository;
  /** Called after a revocation committed, so the outbox relay announces it at once. */
  announced: () => void;
}

/**
 * Revokes a key and writes `auth.key.revoked` in the same transaction, so every gateway drops
 * its cached verdict. Revoking a revoked key answers it as it is; another account's key is
 * not found, exactly as a missing one.
 */
export async function revokeApiKey(ports: RevokeKeyPorts, keyId: string, accountId?: string): Promise<ApiKeySummary> {
  const revoked = await ports.db.transaction(async (tx) => {
    const row = await ports.keys.markRevoked(tx, keyId, accountId);
    if (row) await writeOutbox(tx, [envelope(Events.authKeyRevoked, { keyId: row.id, accountId: row.account_id })]);
    return row;
  });
  if (revoked) {
    ports.announced();
    return toKeySummary(revoked);
  }
  const existing = await ports.keys.find(keyId, accountId);
  if (!existing) throw new AppError('not_found', `No key ${keyId}.`);
  return toKeySummary(existing);
}
