import type { DataSource, EntityManager } from 'typeorm';
import type { ApiKeySummary } from '@postbus/contracts';
import { KEY_PREFIX } from './api-key';
import { scopesAt } from './legacy-webhook-scopes';

interface KeyRow {
  id: string;
  account_id: string;
  user_id: string;
  name: string;
  prefix: string;
  scopes: string[];
  legacy_webhook_scopes: boolean;
  profile_ids: 'all' | string[];
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
}

const COLUMNS = 'id, account_id, user_id, name, prefix, scopes, legacy_webhook_scopes, profile_ids, expires_at, last_used_at, revoked_at, created_at';
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function toKeySummary(k: KeyRow, now = new Date()): ApiKeySummary {
  const expired = k.expires_at !== null && new Date(k.expires_at) <= now;
  const { deprecatedScopes } = scopesAt(k, now);
  return {
    keyId: k.id,
    accountId: k.account_id,
    userId: k.user_id,
    name: k.name,
    prefix: `${KEY_PREFIX}${k.prefix}…`,
    scopes: k.scopes,
    ...(deprecatedScopes && { deprecatedScopes }),
    profileIds: k.profile_ids,
    status: k.revoked_at ? 'revoked' : expired ? 'expired' : 'active',
    createdAt: new Date(k.created_at).toISOString(),
    expiresAt: iso(k.expires_at),
    lastUsedAt: iso(k.last_used_at),
    revokedAt: iso(k.revoked_at),
  };
}

/** Reads and revokes key records (never the secret: only its hash is stored). */
export class ApiKeyRepository {
  constructor(private readonly ds: DataSource) {}

  async listForAccount(accountId: string, now = new Date()): Promise<ApiKeySummary[]> {
    const rows: KeyRow[] = await this.ds.query(`SELECT ${COLUMNS} FROM api_keys WHERE account_id = $1 ORDER BY created_at DESC, id`, [accountId]);
    return rows.map((r) => toKeySummary(r, now));
  }

  async find(keyId: string, accountId?: string, m: EntityManager | DataSource = this.ds): Promise<KeyRow | undefined> {
    const rows: KeyRow[] = await m.query(`SELECT ${COLUMNS} FROM api_keys WHERE id = $1 AND ($2::text IS NULL OR account_id = $2)`, [keyId, accountId ?? null]);
    return rows[0];
  }

  /** Marks the key revoked in the caller's transaction; answers the row only when this call revoked it. */
  async markRevoked(m: EntityManager, keyId: string, accountId?: string): Promise<KeyRow | undefined> {
    // TypeORM answers an UPDATE … RETURNING as [rows, affected].
    const [rows]: [KeyRow[], number] = await m.query(
      `UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND ($2::text IS NULL OR account_id = $2) AND revoked_at IS NULL RETURNING ${COLUMNS}`,
      [keyId, accountId ?? null],
    );
    return rows[0];
  }
}
