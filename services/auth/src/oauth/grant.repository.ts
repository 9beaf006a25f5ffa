import { createHash, randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { databaseOf, type SqlRunner } from '@postbus/kit';
import { Events, newId } from '@postbus/contracts';
import { envelope, writeOutbox } from '@postbus/bus';

export const hashToken = (token: string) => createHash('sha256').update(token).digest();
/** An opaque secret: a recognisable prefix (`oac_` code, `oat_` access, `ort_` refresh) and 256 random bits. */
export const newOpaqueToken = (prefix: 'oac' | 'oat' | 'ort') => `${prefix}_${randomBytes(32).toString('base64url')}`;

export interface CodeRow {
  client_id: string;
  user_id: string;
  account_id: string;
  redirect_uri: string;
  scopes: string[];
  resource: string;
  code_challenge: string;
  expires_at: Date;
  used_at: Date | null;
  grant_id: string | null;
  /** The client's name on the consent page. */
  client_name: string | null;
}

/** A token with the grant (consent) it belongs to. */
export interface TokenRow {
  id: string;
  grant_id: string;
  kind: 'access' | 'refresh';
  scopes: string[];
  expires_at: Date;
  rotated_at: Date | null;
  revoked_at: Date | null;
  grant_revoked_at: Date | null;
  grant_created_at: Date;
  client_id: string;
  user_id: string;
  account_id: string;
  resource: string;
}

export interface NewTokens {
  scopes: string[];
  access: { token: string; expiresAt: Date };
  refresh?: { token: string; expiresAt: Date };
}

const TOKEN_COLUMNS = `t.id, t.grant_id, t.kind, t.scopes, t.expires_at, t.rotated_at, t.revoked_at,
  g.revoked_at AS grant_revoked_at, g.created_at AS grant_created_at, g.client_id, g.user_id, g.account_id, g.resource`;

/** A grant as the settings page lists it: a connected application. */
export interface ConnectedApplication {
  grantId: string;
  clientId: string;
  clientName: string;
  scopes: string[];
  grantedAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const APPLICATION_COLUMNS = `g.id AS "grantId", g.client_id AS "clientId", coalesce(g.client_name, c.name, g.client_id) AS "clientName",
  g.scopes, g.created_at AS "grantedAt", g.last_used_at AS "lastUsedAt", g.revoked_at AS "revokedAt"`;

/**
 * Authorization codes, grants (one per consent, the family of every token issued under it) and
 * tokens; only hashes of secrets. A revocation writes `auth.grant.revoked` in its transaction, so
 * every mcp replica drops the verdicts it cached for the grant's tokens.
 */
export class GrantRepository {
  constructor(
    private readonly ds: DataSource,
    /** Called after a revocation committed, so the outbox relay announces it at once. */
    private readonly announced: () => void = () => undefined,
  ) {}

  async saveCode(code: string, c: Omit<CodeRow, 'used_at' | 'grant_id'>): Promise<void> {
    await this.ds.query("DELETE FROM oauth_codes WHERE expires_at < now() - interval '1 day'");
    await this.ds.query(
      `INSERT INTO oauth_codes (hash, client_id, user_id, account_id, redirect_uri, scopes, resource, code_challenge, expires_at, client_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        hashToken(code),
        c.client_id,
        c.user_id,
        c.account_id,
        c.redirect_uri,
        c.scopes,
        c.resource,
        c.code_challenge,
        c.expires_at,
        c.client_name,
      ],
    );
  }

  async findCode(code: string): Promise<CodeRow | undefined> {
    const rows: CodeRow[] = await this.ds.query(
      'SELECT client_id, user_id, account_id, redirect_uri, scopes, resource, code_challenge, expires_at, used_at, grant_id, client_name FROM oauth_codes WHERE hash = $1',
      [hashToken(code)],
    );
    return rows[0];
  }

  /** Marks a code used; true only for the one call that used it. */
  async useCode(code: string): Promise<boolean> {
    const [, affected]: [unknown, number] = await this.ds.query(
      'UPDATE oauth_codes SET used_at = now() WHERE hash = $1 AND used_at IS NULL',
      [hashToken(code)],
    );
    return affected === 1;
  }

  /** Opens the grant of a consent from its code and issues its first tokens, in one transaction. */
  async openGrant(code: string, c: CodeRow, tokens: NewTokens): Promise<{ grantId: string; accessTokenId: string }> {
    return this.ds.transaction(async (m) => {
      const grantId = newId('grt');
      await m.query(
        'INSERT INTO oauth_grants (id, client_id, user_id, account_id, scopes, resource, client_name, last_used_at) VALUES ($1, $2, $3, $4, $5, $6, $7, now())',
        [grantId, c.client_id, c.user_id, c.account_id, tokens.scopes, c.resource, c.client_name],
      );
      await m.query('UPDATE oauth_codes SET grant_id = $2 WHERE hash = $1', [hashToken(code), grantId]);
      const accessTokenId = await this.insertTokens(m, grantId, tokens);
      return { grantId, accessTokenId };
    });
  }

  /** Issues tokens under an existing grant (a refresh). */
  async extendGrant(grantId: string, tokens: NewTokens): Promise<{ accessTokenId: string }> {
    return this.ds.transaction(async (m) => {
      await m.query('UPDATE oauth_grants SET last_used_at = now() WHERE id = $1', [grantId]);
      return { accessTokenId: await this.insertTokens(m, grantId, tokens) };
    });
  }

  /** Notes that a grant's access token was used; written at most once a minute per grant. */
  async markUsed(grantId: string): Promise<void> {
    await this.ds.query(
      `UPDATE oauth_grants SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [grantId],
    );
  }

  /**
   * The applications a person connected and can still be reached through: grants not revoked,
   * younger than their maximum lifetime, with a token still usable. Newest first.
   */
  async listConnected(userId: string, maxAgeDays: number): Promise<ConnectedApplication[]> {
    return this.ds.query(
      `SELECT ${APPLICATION_COLUMNS}
         FROM oauth_grants g LEFT JOIN oauth_clients c ON c.id = g.client_id
        WHERE g.user_id = $1 AND g.revoked_at IS NULL AND g.created_at > now() - make_interval(days => $2)
          AND EXISTS (SELECT 1 FROM oauth_tokens t WHERE t.grant_id = g.id AND t.revoked_at IS NULL AND t.rotated_at IS NULL AND t.expires_at > now())
        ORDER BY g.created_at DESC
        LIMIT 200`,
      [userId, maxAgeDays],
    );
  }

  /** One grant of this person (revoked or not); undefined for another person's. */
  async findConnected(grantId: string, userId: string): Promise<ConnectedApplication | undefined> {
    const rows: ConnectedApplication[] = await this.ds.query(
      `SELECT ${APPLICATION_COLUMNS} FROM oauth_grants g LEFT JOIN oauth_clients c ON c.id = g.client_id WHERE g.id = $1 AND g.user_id = $2`,
      [grantId, userId],
    );
    return rows[0];
  }

  private async insertTokens(m: { query: DataSource['query'] }, grantId: string, tokens: NewTokens): Promise<string> {
    const accessTokenId = newId('tok');
    const insert =
      'INSERT INTO oauth_tokens (id, grant_id, kind, hash, scopes, expires_at) VALUES ($1, $2, $3, $4, $5, $6)';
    await m.query(insert, [
      accessTokenId,
      grantId,
      'access',
      hashToken(tokens.access.token),
      tokens.scopes,
      tokens.access.expiresAt,
    ]);
    if (tokens.refresh)
      await m.query(insert, [
        newId('tok'),
        grantId,
        'refresh',
        hashToken(tokens.refresh.token),
        tokens.scopes,
        tokens.refresh.expiresAt,
      ]);
    return accessTokenId;
  }

  async findToken(token: string): Promise<TokenRow | undefined> {
    const rows: TokenRow[] = await this.ds.query(
      `SELECT ${TOKEN_COLUMNS} FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id WHERE t.hash = $1`,
      [hashToken(token)],
    );
    return rows[0];
  }

  /** The name (the client's, else its id) and expiry of an access or refresh token of the account. */
  async describeToken(
    tokenId: string,
    accountId: string,
  ): Promise<{ name: string | null; expiresAt: Date } | undefined> {
    const rows: { name: string | null; expires_at: Date }[] = await this.ds.query(
      `SELECT coalesce(c.name, g.client_id) AS name, t.expires_at
         FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id LEFT JOIN oauth_clients c ON c.id = g.client_id
        WHERE t.id = $1 AND g.account_id = $2`,
      [tokenId, accountId],
    );
    return rows[0] && { name: rows[0].name, expiresAt: rows[0].expires_at };
  }

  /** Marks a refresh token used (rotated); true only for the one call that rotated it. */
  async rotate(tokenId: string): Promise<boolean> {
    const [, affected]: [unknown, number] = await this.ds.query(
      'UPDATE oauth_tokens SET rotated_at = now() WHERE id = $1 AND rotated_at IS NULL AND revoked_at IS NULL',
      [tokenId],
    );
    return affected === 1;
  }

  /** Revokes one access token; its grant stands. */
  async revokeToken(tokenId: string): Promise<void> {
    const revoked = await databaseOf(this.ds).transaction(async (m) => {
      const rows = await m.updateReturning<{ grant_id: string; account_id: string }>(
        `UPDATE oauth_tokens t SET revoked_at = now() FROM oauth_grants g
          WHERE t.id = $1 AND t.revoked_at IS NULL AND g.id = t.grant_id RETURNING t.grant_id, g.account_id`,
        [tokenId],
      );
      if (rows[0]) await announceRevoked(m, rows[0].grant_id, rows[0].account_id, tokenId);
      return rows.length > 0;
    });
    if (revoked) this.announced();
  }

  /**
   * Revokes a grant and every token issued under it (the whole family); with `userId`, only a
   * grant of that person. True when this call revoked it.
   */
  async revokeGrant(grantId: string, reason: string, opts: { userId?: string } = {}): Promise<boolean> {
    const revoked = await databaseOf(this.ds).transaction(async (m) => {
      const rows = await m.updateReturning<{ account_id: string }>(
        'UPDATE oauth_grants SET revoked_at = now(), revoked_reason = $2 WHERE id = $1 AND revoked_at IS NULL AND ($3::text IS NULL OR user_id = $3) RETURNING account_id',
        [grantId, reason, opts.userId ?? null],
      );
      if (!rows[0]) return false;
      await m.query('UPDATE oauth_tokens SET revoked_at = now() WHERE grant_id = $1 AND revoked_at IS NULL', [grantId]);
      await announceRevoked(m, grantId, rows[0].account_id);
      return true;
    });
    if (revoked) this.announced();
    return revoked;
  }
}

function announceRevoked(m: SqlRunner, grantId: string, accountId: string, tokenId?: string): Promise<void> {
  return writeOutbox(m, [
    envelope(Events.authGrantRevoked, tokenId ? { grantId, accountId, tokenId } : { grantId, accountId }),
  ]);
}
