import { createHash, randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { newId } from '@postbus/contracts';

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
  g.revoked_at AS grant_revoked_at, g.client_id, g.user_id, g.account_id, g.resource`;

/** Authorization codes, grants (one per consent, the family of every token issued under it) and tokens; only hashes of secrets. */
export class GrantRepository {
  constructor(private readonly ds: DataSource) {}

  async saveCode(code: string, c: Omit<CodeRow, 'used_at' | 'grant_id'>): Promise<void> {
    await this.ds.query('DELETE FROM oauth_codes WHERE expires_at < now() - interval \'1 day\'');
    await this.ds.query(
      `INSERT INTO oauth_codes (hash, client_id, user_id, account_id, redirect_uri, scopes, resource, code_challenge, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [hashToken(code), c.client_id, c.user_id, c.account_id, c.redirect_uri, c.scopes, c.resource, c.code_challenge, c.expires_at],
    );
  }

  async findCode(code: string): Promise<CodeRow | undefined> {
    const rows: CodeRow[] = await this.ds.query('SELECT client_id, user_id, account_id, redirect_uri, scopes, resource, code_challenge, expires_at, used_at, grant_id FROM oauth_codes WHERE hash = $1', [hashToken(code)]);
    return rows[0];
  }

  /** Marks a code used; true only for the one call that used it. */
  async useCode(code: string): Promise<boolean> {
    const [, affected]: [unknown, number] = await this.ds.query('UPDATE oauth_codes SET used_at = now() WHERE hash = $1 AND used_at IS NULL', [hashToken(code)]);
    return affected === 1;
  }

  /** Opens the grant of a consent from its code and issues its first tokens, in one transaction. */
  async openGrant(code: string, c: CodeRow, tokens: NewTokens): Promise<{ grantId: string; accessTokenId: string }> {
    return this.ds.transaction(async (m) => {
      const grantId = newId('grt');
      await m.query('INSERT INTO oauth_grants (id, client_id, user_id, account_id, scopes, resource) VALUES ($1, $2, $3, $4, $5, $6)', [grantId, c.client_id, c.user_id, c.account_id, tokens.scopes, c.resource]);
      await m.query('UPDATE oauth_codes SET grant_id = $2 WHERE hash = $1', [hashToken(code), grantId]);
      const accessTokenId = await this.insertTokens(m, grantId, tokens);
      return { grantId, accessTokenId };
    });
  }

  /** Issues tokens under an existing grant (a refresh). */
  async extendGrant(grantId: string, tokens: NewTokens): Promise<{ accessTokenId: string }> {
    return this.ds.transaction(async (m) => ({ accessTokenId: await this.insertTokens(m, grantId, tokens) }));
  }

  private async insertTokens(m: { query: DataSource['query'] }, grantId: string, tokens: NewTokens): Promise<string> {
    const accessTokenId = newId('tok');
    const insert = 'INSERT INTO oauth_tokens (id, grant_id, kind, hash, scopes, expires_at) VALUES ($1, $2, $3, $4, $5, $6)';
    await m.query(insert, [accessTokenId, grantId, 'access', hashToken(tokens.access.token), tokens.scopes, tokens.access.expiresAt]);
    if (tokens.refresh) await m.query(insert, [newId('tok'), grantId, 'refresh', hashToken(tokens.refresh.token), tokens.scopes, tokens.refresh.expiresAt]);
    return accessTokenId;
  }

  async findToken(token: string): Promise<TokenRow | undefined> {
    const rows: TokenRow[] = await this.ds.query(`SELECT ${TOKEN_COLUMNS} FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id WHERE t.hash = $1`, [hashToken(token)]);
    return rows[0];
  }

  /** Marks a refresh token used (rotated); true only for the one call that rotated it. */
  async rotate(tokenId: string): Promise<boolean> {
    const [, affected]: [unknown, number] = await this.ds.query('UPDATE oauth_tokens SET rotated_at = now() WHERE id = $1 AND rotated_at IS NULL AND revoked_at IS NULL', [tokenId]);
    return affected === 1;
  }

  async revokeToken(tokenId: string): Promise<void> {
    await this.ds.query('UPDATE oauth_tokens SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [tokenId]);
  }

  /** Revokes a grant and every token issued under it (the whole family). */
  async revokeGrant(grantId: string, reason: string): Promise<void> {
    await this.ds.transaction(async (m) => {
      await m.query('UPDATE oauth_grants SET revoked_at = now(), revoked_reason = $2 WHERE id = $1 AND revoked_at IS NULL', [grantId, reason]);
      await m.query('UPDATE oauth_tokens SET revoked_at = now() WHERE grant_id = $1 AND revoked_at IS NULL', [grantId]);
    });
  }
}
