import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Sign-ins to the settings pages: only a hash of the cookie's token is kept. */
export class CreateSessions1732200000202 implements MigrationInterface {
  name = 'CreateSessions1732200000202';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE sessions (
      id bytea PRIMARY KEY,
      user_id text NOT NULL REFERENCES users(id),
      account_id text NOT NULL REFERENCES accounts(id),
      csrf_token text NOT NULL,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query('CREATE INDEX sessions_expiry ON sessions (expires_at)');
    await q.query('CREATE INDEX sessions_user ON sessions (user_id)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE sessions');
  }
}
