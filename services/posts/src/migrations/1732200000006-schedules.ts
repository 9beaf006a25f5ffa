import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Posting schedules (weekly local-time slots) and which queued post holds which slot. A claim
 * counts only while its post is live and still due at the slot, so cancelling or moving a post
 * frees the slot without touching the claim.
 */
export class Schedules1732200000006 implements MigrationInterface {
  name = 'Schedules1732200000006';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE schedules (
      id text PRIMARY KEY,
      account_id text NOT NULL,
      name text NOT NULL,
      timezone text NOT NULL,
      slots jsonb NOT NULL,
      profile_ids text[] NOT NULL,
      posts_per_slot int NOT NULL DEFAULT 1,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query('CREATE INDEX schedules_account ON schedules (account_id, created_at)');
    await q.query(`CREATE TABLE schedule_claims (
      post_id text PRIMARY KEY,
      schedule_id text NOT NULL REFERENCES schedules (id) ON DELETE CASCADE,
      profile_id text NOT NULL,
      slot_at timestamptz NOT NULL
    )`);
    await q.query('CREATE INDEX schedule_claims_slot ON schedule_claims (schedule_id, profile_id, slot_at)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE schedule_claims');
    await q.query('DROP TABLE schedules');
  }
}
