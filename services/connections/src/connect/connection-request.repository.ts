import type { DataSource } from 'typeorm';
import { databaseOf, type Database } from '@postbus/kit';
import type { ConnectionRequestState, ConnectionRequestStatus } from '@postbus/contracts';
import { AUTHORIZATION_WINDOW_MS } from './authorization-window';

export interface ConnectionRequestRow {
  id: string;
  account_id: string;
  user_id: string;
  credential_id: string;
  platform: string;
  /** pending | completed | failed; `expired` is pending past expires_at. */
  status: 'pending' | 'completed' | 'failed';
  expires_at: Date;
  opened_at: Date | null;
  state_hash: string | null;
  browser_hash: string | null;
  code_verifier_enc: string | null;
  grant_enc: string | null;
  /** Mastodon: the instance host the person named, where the callback's code is traded. */
  instance: string | null;
  candidates: AccountChoice[] | null;
  profile_id: string | null;
  failure_reason: string | null;
  created_at: Date;
  completed_at: Date | null;
}

/** An account the person may pick when a grant reaches several (Facebook Pages, YouTube channels). No secrets. */
export interface AccountChoice {
  platformUserId: string;
  handle: string;
  displayName: string;
  profileImageUrl: string | null;
}

/**
 * `expired` is a pending request past its deadline: the link's expiry while it is unused, then
 * the authorization window once it has been opened.
 */
export function statusOf(r: ConnectionRequestRow, now: Date): ConnectionRequestStatus {
  if (r.status !== 'pending') return r.status;
  const deadline = r.opened_at
    ? new Date(r.opened_at).getTime() + AUTHORIZATION_WINDOW_MS
    : new Date(r.expires_at).getTime();
  return deadline <= now.getTime() ? 'expired' : 'pending';
}

export function toRequestState(r: ConnectionRequestRow, now: Date): ConnectionRequestState {
  return {
    requestId: r.id,
    platform: r.platform,
    status: statusOf(r, now),
    profileId: r.profile_id,
    failureReason: r.failure_reason,
    expiresAt: new Date(r.expires_at).toISOString(),
    createdAt: new Date(r.created_at).toISOString(),
    completedAt: r.completed_at ? new Date(r.completed_at).toISOString() : null,
  };
}

/** Connection requests: the handoff link, its OAuth state and its outcome. */
export class ConnectionRequestRepository {
  private readonly db: Database;

  constructor(private readonly ds: DataSource) {
    this.db = databaseOf(ds);
  }

  async create(r: {
    id: string;
    accountId: string;
    userId: string;
    credentialId: string;
    platform: string;
    expiresAt: Date;
  }): Promise<ConnectionRequestRow> {
    const rows: ConnectionRequestRow[] = await this.ds.query(
      'INSERT INTO connection_requests (id, account_id, user_id, credential_id, platform, expires_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
      [r.id, r.accountId, r.userId, r.credentialId, r.platform, r.expiresAt],
    );
    return rows[0];
  }

  async find(id: string): Promise<ConnectionRequestRow | undefined> {
    const rows: ConnectionRequestRow[] = await this.ds.query('SELECT * FROM connection_requests WHERE id = $1', [id]);
    return rows[0];
  }

  async findForAccount(accountId: string, id: string): Promise<ConnectionRequestRow | undefined> {
    const rows: ConnectionRequestRow[] = await this.ds.query(
      'SELECT * FROM connection_requests WHERE id = $1 AND account_id = $2',
      [id, accountId],
    );
    return rows[0];
  }

  async findByState(stateHash: string): Promise<ConnectionRequestRow | undefined> {
    const rows: ConnectionRequestRow[] = await this.ds.query(
      'SELECT * FROM connection_requests WHERE state_hash = $1',
      [stateHash],
    );
    return rows[0];
  }

  /** Marks the link used, once: answers undefined when it was used already, expired or finished. */
  async claim(
    id: string,
    c: { stateHash: string; browserHash: string; codeVerifierEnc: string | null; now: Date; instance?: string },
  ): Promise<ConnectionRequestRow | undefined> {
    const rows = await this.db.updateReturning<ConnectionRequestRow>(
      `UPDATE connection_requests SET opened_at = $5, state_hash = $2, browser_hash = $3, code_verifier_enc = $4, instance = $6
       WHERE id = $1 AND opened_at IS NULL AND status = 'pending' AND expires_at > $5 RETURNING *`,
      [id, c.stateHash, c.browserHash, c.codeVerifierEnc, c.now, c.instance ?? null],
    );
    return rows[0];
  }

  /** The one place a pending request ends; answers undefined when it had already ended. */
  async finish(
    m: Database,
    id: string,
    outcome: { status: 'completed'; profileId: string } | { status: 'failed'; reason: string },
  ): Promise<ConnectionRequestRow | undefined> {
    const rows = await m.updateReturning<ConnectionRequestRow>(
      `UPDATE connection_requests SET status = $2, profile_id = $3, failure_reason = $4, completed_at = now(),
         code_verifier_enc = NULL, grant_enc = NULL, candidates = NULL
       WHERE id = $1 AND status = 'pending' RETURNING *`,
      [
        id,
        outcome.status,
        outcome.status === 'completed' ? outcome.profileId : null,
        outcome.status === 'failed' ? outcome.reason : null,
      ],
    );
    return rows[0];
  }

  async fail(id: string, reason: string): Promise<ConnectionRequestRow | undefined> {
    return this.finish(this.db, id, { status: 'failed', reason });
  }

  /** Keeps the sealed grant while the person picks among several accounts. */
  async awaitChoice(id: string, grantEnc: string, candidates: AccountChoice[]): Promise<void> {
    await this.ds.query(
      `UPDATE connection_requests SET grant_enc = $2, candidates = $3::jsonb, code_verifier_enc = NULL WHERE id = $1 AND status = 'pending'`,
      [id, grantEnc, JSON.stringify(candidates)],
    );
  }

  /** Erases the sealed verifier and grant of flows abandoned before `openedBefore`; answers how many. */
  async eraseAbandonedSecrets(openedBefore: Date): Promise<number> {
    const rows = await this.db.updateReturning<{ id: string }>(
      `UPDATE connection_requests SET code_verifier_enc = NULL, grant_enc = NULL, candidates = NULL
       WHERE status = 'pending' AND opened_at < $1 AND (code_verifier_enc IS NOT NULL OR grant_enc IS NOT NULL) RETURNING id`,
      [openedBefore],
    );
    return rows.length;
  }

  /** Rows after `afterId` holding something that does not start with `prefix` (another key, or the unbound form), locked for re-sealing. */
  async lockSealedOtherwise(
    m: Database,
    prefix: string,
    afterId: string,
    limit: number,
  ): Promise<Pick<ConnectionRequestRow, 'id' | 'code_verifier_enc' | 'grant_enc'>[]> {
    return m.query(
      `SELECT id, code_verifier_enc, grant_enc FROM connection_requests
       WHERE id > $3 AND ((code_verifier_enc IS NOT NULL AND NOT starts_with(code_verifier_enc, $1))
          OR (grant_enc IS NOT NULL AND NOT starts_with(grant_enc, $1)))
       ORDER BY id LIMIT $2 FOR UPDATE`,
      [prefix, limit, afterId],
    );
  }

  async saveSealed(m: Database, id: string, codeVerifierEnc: string | null, grantEnc: string | null): Promise<void> {
    await m.query('UPDATE connection_requests SET code_verifier_enc = $2, grant_enc = $3 WHERE id = $1', [
      id,
      codeVerifierEnc,
      grantEnc,
    ]);
  }
}
