import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAttempts1732200000301 implements MigrationInterface {
  name = 'CreateAttempts1732200000301';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE attempts (
      post_id text PRIMARY KEY,
      account_id text NOT NULL,
      profile_id text NOT NULL,
      platform text NOT NULL,
      state text NOT NULL,
      tries integer NOT NULL DEFAULT 0,
      platform_post_id text,
      permalink text,
      failed_reason text,
      last_error text,
      started_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz
    )`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE attempts');
  }
}
