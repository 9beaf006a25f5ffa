import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Recurring posts: a series keeps the rule, the post every occurrence is made from and the
 * principal that asked; each occurrence is recorded once (its posts, or why it was refused), so
 * extending a series again after a crash creates nothing twice.
 */
export class Series1732200000008 implements MigrationInterface {
  name = 'Series1732200000008';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE series (
      id text PRIMARY KEY,
      account_id text NOT NULL,
      principal jsonb NOT NULL,
      rule text NOT NULL,
      timezone text NOT NULL,
      first_local text NOT NULL,
      first_time timestamptz NOT NULL,
      template jsonb NOT NULL,
      status text NOT NULL DEFAULT 'active',
      next_index integer NOT NULL DEFAULT 0,
      next_time timestamptz,
      idempotency_key text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(
      'CREATE UNIQUE INDEX series_idempotency ON series (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL',
    );
    await q.query(`CREATE INDEX series_due ON series (next_time) WHERE status = 'active'`);
    await q.query(`CREATE TABLE series_occurrences (
      series_id text NOT NULL REFERENCES series (id) ON DELETE CASCADE,
      index integer NOT NULL,
      scheduled_time timestamptz NOT NULL,
      post_ids text[] NOT NULL DEFAULT '{}',
      error_code text,
      error_message text,
      PRIMARY KEY (series_id, index)
    )`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE series_occurrences');
    await q.query('DROP TABLE series');
  }
}
