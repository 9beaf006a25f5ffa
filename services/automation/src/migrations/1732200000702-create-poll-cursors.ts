import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Where the reading of each polled profile's comments stands (platforms with no webhooks), and why it is paused. */
export class CreatePollCursors1732200000702 implements MigrationInterface {
  name = 'CreatePollCursors1732200000702';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE poll_cursors (
      profile_id text PRIMARY KEY,
      account_id text NOT NULL,
      platform text NOT NULL,
      cursor text,
      backoff_until timestamptz,
      skipped_reason text,
      skipped_detail text,
      skipped_token text,
      polled_at timestamptz,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query('CREATE INDEX poll_cursors_account ON poll_cursors (account_id, polled_at)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE poll_cursors');
  }
}
