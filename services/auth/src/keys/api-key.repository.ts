import type { DataSource } from 'typeorm';
import { databaseOf, type Database } from '@postbus/kit';
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

/** A presented key with the state of its user and account, as verifying it needs them. */
export interface KeyWithOwner {
  id: string;
  account_id: string;
  user_id: string;
  hash: Buffer;
  scopes: string[];
  legacy_webhook_scopes: boolean;
  profile_ids: 'all' | string[];
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  user_disabled: boolean | null;
  account_disabled: boolean | null;
  account_exists: string | null;
  plan: string | null;
  tester: boolean | null;
  trial_ends_at: Date | null;
}

export interface NewApiKey {
  id: string;
  accountId: string;
  userId: string;
  name: string;
  lookup: string;
  hash: Buffer;
  scopes: string[];
  profileIds: 'all' | string[];
  expiresAt: string | null;
}

const COLUMNS =
  'id, account_id, user_id, name, prefix, scopes, legacy_webhook_scopes, profile_ids, expires_at, last_used_at, revoked_at, created_at';
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
  private readonly db: Database;

  constructor(ds: DataSource | Database) {
    this.db = databaseOf(ds);
  }

  async listForAccount(accountId: string, now = new Date()): Promise<ApiKeySummary[]> {
    const rows: KeyRow[] = await this.db.query(
      `SELECT ${COLUMNS} FROM api_keys WHERE account_id = $1 ORDER BY created_at DESC, id`,
      [accountId],
    );
    return rows.map((r) => toKeySummary(r, now));
  }

  async find(keyId: string, accountId?: string, db: Database = this.db): Promise<KeyRow | undefined> {
    return db.one<KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE id = $1 AND ($2::text IS NULL OR account_id = $2)`, [
      keyId,
      accountId ?? null,
    ]);
  }

  /** Marks the key revoked in the caller's transaction; answers the row only when this call revoked it. */
  async markRevoked(tx: Database, keyId: string, accountId?: string): Promise<KeyRow | undefined> {
    const [row] = await tx.updateReturning<KeyRow>(
      `UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND ($2::text IS NULL OR account_id = $2) AND revoked_at IS NULL RETURNING ${COLUMNS}`,
      [keyId, accountId ?? null],
    );
    return row;
  }

  /** The user a new key belongs to: the named user when it is in the account, else the account's first user. */
  async findOwner(accountId: string, userId?: string): Promise<string | undefined> {
    const owner = userId
      ? await this.db.one<{ id: string }>('SELECT id FROM users WHERE id = $1 AND account_id = $2', [userId, accountId])
      : await this.db.one<{ id: string }>(
          'SELECT id FROM users WHERE account_id = $1 ORDER BY created_at, id LIMIT 1',
          [accountId],
        );
    return owner?.id;
  }

  async insert(key: NewApiKey): Promise<void> {
    await this.db.query(
      'INSERT INTO api_keys (id, account_id, user_id, name, prefix, hash, scopes, profile_ids, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9)',
      [
        key.id,
        key.accountId,
        key.userId,
        key.name,
        key.lookup,
        key.hash,
        key.scopes,
        JSON.stringify(key.profileIds),
        key.expiresAt,
      ],
    );
  }

  /** The key whose lookup prefix is `lookup`, with its user's and account's state (left joined: either may be gone). */
  async findWithOwner(lookup: string): Promise<KeyWithOwner | undefined> {
    return this.db.one<KeyWithOwner>(
      `SELECT k.id, k.account_id, k.user_id, k.hash, k.scopes, k.legacy_webhook_scopes, k.profile_ids, k.expires_at, k.revoked_at, k.last_used_at,
              u.disabled AS user_disabled, a.id AS account_exists, a.disabled AS account_disabled, a.plan, a.tester, a.trial_ends_at
         FROM api_keys k
         LEFT JOIN users u ON u.id = k.user_id
         LEFT JOIN accounts a ON a.id = k.account_id
        WHERE k.prefix = $1`,
      [lookup],
    );
  }

  async markUsed(keyId: string, at: Date): Promise<void> {
    await this.db.query('UPDATE api_keys SET last_used_at = $2 WHERE id = $1', [keyId, at]);
  }
}
