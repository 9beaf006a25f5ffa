import { createHash, randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';

/** A signed-in user as the pages see them. */
export interface Session {
  userId: string;
  accountId: string;
  email: string;
  csrfToken: string;
  expiresAt: Date;
}

export const randomToken = () => randomBytes(32).toString('base64url');
const hashToken = (token: string) => createHash('sha256').update(token).digest();

/** Sessions of the human pages, kept in auth's schema; the cookie carries a token whose hash is the row id. */
export class SessionRepository {
  constructor(
    private readonly ds: DataSource,
    private readonly ttlMs: number,
  ) {}

  async create(userId: string, accountId: string, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
    const token = randomToken();
    const expiresAt = new Date(now.getTime() + this.ttlMs);
    await this.ds.query('DELETE FROM sessions WHERE expires_at <= $1', [now]);
    await this.ds.query(
      'INSERT INTO sessions (id, user_id, account_id, csrf_token, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [hashToken(token), userId, accountId, randomToken(), expiresAt],
    );
    return { token, expiresAt };
  }

  /** The live session of a token, or undefined when it is unknown, expired, or its user or account is disabled. */
  async find(token: string, now = new Date()): Promise<Session | undefined> {
    const rows: { user_id: string; account_id: string; email: string; csrf_token: string; expires_at: Date }[] =
      await this.ds.query(
        `SELECT s.user_id, s.account_id, u.email, s.csrf_token, s.expires_at
         FROM sessions s JOIN users u ON u.id = s.user_id JOIN accounts a ON a.id = s.account_id
        WHERE s.id = $1 AND s.expires_at > $2 AND NOT u.disabled AND NOT a.disabled`,
        [hashToken(token), now],
      );
    const r = rows[0];
    return (
      r && {
        userId: r.user_id,
        accountId: r.account_id,
        email: r.email,
        csrfToken: r.csrf_token,
        expiresAt: new Date(r.expires_at),
      }
    );
  }

  async delete(token: string): Promise<void> {
    await this.ds.query('DELETE FROM sessions WHERE id = $1', [hashToken(token)]);
  }
}
