import type { DataSource, EntityManager } from 'typeorm';
import { databaseOf } from '@postbus/kit';
import type { ApprovalDecision } from '@postbus/contracts';

export interface ApprovalRow {
  id: string;
  account_id: string;
  post_id: string;
  /** Random per request; the link's token is its signature, so a link cannot be made for another request. */
  nonce: string;
  status: ApprovalDecision;
  expires_at: Date;
  requested_at: Date;
  decided_at: Date | null;
}

/** The approvals table: one row per approval request of a post, the latest one current. */
export class ApprovalRepository {
  constructor(private readonly ds: DataSource) {}

  async insert(
    m: EntityManager,
    a: { id: string; accountId: string; postId: string; nonce: string; ttlSeconds: number },
  ): Promise<ApprovalRow> {
    const rows: ApprovalRow[] = await m.query(
      `INSERT INTO approvals (id, account_id, post_id, nonce, status, expires_at)
       VALUES ($1, $2, $3, $4, 'pending', now() + make_interval(secs => $5)) RETURNING *`,
      [a.id, a.accountId, a.postId, a.nonce, a.ttlSeconds],
    );
    return rows[0];
  }

  async find(id: string): Promise<ApprovalRow | undefined> {
    const rows: ApprovalRow[] = await this.ds.query('SELECT * FROM approvals WHERE id = $1', [id]);
    return rows[0];
  }

  async latestForPost(accountId: string, postId: string): Promise<ApprovalRow | undefined> {
    const rows: ApprovalRow[] = await this.ds.query(
      'SELECT * FROM approvals WHERE account_id = $1 AND post_id = $2 ORDER BY requested_at DESC, id DESC LIMIT 1',
      [accountId, postId],
    );
    return rows[0];
  }

  /** Records a decision once, while the request is pending and not expired. */
  async decide(m: EntityManager, id: string, decision: 'approved' | 'rejected'): Promise<ApprovalRow | undefined> {
    const [row] = await databaseOf(m).updateReturning<ApprovalRow>(
      `UPDATE approvals SET status = $2, decided_at = now() WHERE id = $1 AND status = 'pending' AND expires_at > now() RETURNING *`,
      [id, decision],
    );
    return row;
  }

  async cancelPending(m: EntityManager, postId: string): Promise<void> {
    await m.query(
      `UPDATE approvals SET status = 'cancelled', decided_at = now() WHERE post_id = $1 AND status = 'pending'`,
      [postId],
    );
  }

  /**
   * Expires pending requests past their time and returns their posts to draft, in one statement.
   * Runs on every scheduler tick and before any read of an approval, so no reader sees a stale one.
   */
  async expireDue(postId?: string): Promise<number> {
    const [{ n }] = await this.ds.query<{ n: number }[]>(
      `WITH expired AS (
         UPDATE approvals SET status = 'expired' WHERE status = 'pending' AND expires_at <= now() AND ($1::text IS NULL OR post_id = $1) RETURNING post_id
       ), returned AS (
         UPDATE posts p SET status = 'draft', updated_at = now() FROM expired WHERE p.id = expired.post_id AND p.status = 'pending_approval' RETURNING p.id
       )
       SELECT count(*)::int AS n FROM expired`,
      [postId ?? null],
    );
    return n;
  }
}
