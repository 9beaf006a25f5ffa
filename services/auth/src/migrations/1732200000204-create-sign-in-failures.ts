import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Failed sign-ins per email, for the backoff: the hash of the normalized address (never the
 * address, which may be a password typed in the wrong field), the failures in a row, and until
 * when the email is refused without its password being checked.
 */
export class CreateSignInFailures1732200000204 implements MigrationInterface {
  name = 'CreateSignInFailures1732200000204';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE sign_in_failures (
      email_hash bytea PRIMARY KEY,
      failures integer NOT NULL,
      locked_until timestamptz,
      last_attempt_at timestamptz NOT NULL
    )`);
    await q.query('CREATE INDEX sign_in_failures_last_attempt ON sign_in_failures (last_attempt_at)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE sign_in_failures');
  }
}
