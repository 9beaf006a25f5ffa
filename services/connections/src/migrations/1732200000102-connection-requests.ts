import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Handoff links, token bookkeeping on profiles, and erasable tokens for disconnected profiles. */
export class ConnectionRequests1732200000102 implements MigrationInterface {
  name = 'ConnectionRequests1732200000102';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE profiles
      ALTER COLUMN access_token_enc DROP NOT NULL,
      ADD COLUMN status_reason text,
      ADD COLUMN token_refreshed_at timestamptz,
      ADD COLUMN refresh_expires_at timestamptz,
      ADD COLUMN disconnected_at timestamptz`);
    await q.query(
      `CREATE INDEX profiles_refresh_due ON profiles (token_expires_at) WHERE status = 'active' AND token_expires_at IS NOT NULL`,
    );
    await q.query(`CREATE TABLE connection_requests (
      id text PRIMARY KEY,
      account_id text NOT NULL,
      user_id text NOT NULL,
      credential_id text NOT NULL,
      platform text NOT NULL,
      status text NOT NULL DEFAULT 'pending',
      expires_at timestamptz NOT NULL,
      opened_at timestamptz,
      state_hash text UNIQUE,
      browser_hash text,
      code_verifier_enc text,
      grant_enc text,
      candidates jsonb,
      profile_id text,
      failure_reason text,
      created_at timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz
    )`);
    await q.query('CREATE INDEX connection_requests_account ON connection_requests (account_id, created_at)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE connection_requests');
    await q.query('DROP INDEX profiles_refresh_due');
    await q.query(
      `ALTER TABLE profiles DROP COLUMN status_reason, DROP COLUMN token_refreshed_at, DROP COLUMN refresh_expires_at, DROP COLUMN disconnected_at`,
    );
  }
}
