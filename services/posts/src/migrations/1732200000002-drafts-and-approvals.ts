import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Drafts may have no time yet; approval requests of drafts; lookups for the list filters. */
export class DraftsAndApprovals1732200000002 implements MigrationInterface {
  name = 'DraftsAndApprovals1732200000002';
  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE posts ALTER COLUMN scheduled_time DROP NOT NULL');
    await q.query(`CREATE TABLE approvals (
      id text PRIMARY KEY,
      account_id text NOT NULL,
      post_id text NOT NULL,
      nonce text NOT NULL,
      status text NOT NULL,
      expires_at timestamptz NOT NULL,
      requested_at timestamptz NOT NULL DEFAULT now(),
      decided_at timestamptz
    )`);
    await q.query('CREATE INDEX approvals_post ON approvals (post_id, requested_at DESC)');
    await q.query(`CREATE INDEX approvals_pending ON approvals (expires_at) WHERE status = 'pending'`);
    await q.query('CREATE INDEX posts_account_status ON posts (account_id, status, created_at DESC, id DESC)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX posts_account_status');
    await q.query('DROP TABLE approvals');
    await q.query(`DELETE FROM posts WHERE scheduled_time IS NULL`);
    await q.query('ALTER TABLE posts ALTER COLUMN scheduled_time SET NOT NULL');
  }
}
