import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The attempt becomes a small state machine that any publisher process can pick up:
 * a fencing sequence and owner, the platform-side progress (checkpoint), processing and
 * retry timing; plus worker heartbeats and the per-profile rate-limit log.
 */
export class PublishingPipeline1732200000302 implements MigrationInterface {
  name = 'PublishingPipeline1732200000302';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE attempts
      ADD COLUMN seq integer NOT NULL DEFAULT 0,
      ADD COLUMN worker_id text,
      ADD COLUMN checkpoint jsonb,
      ADD COLUMN processing_since timestamptz,
      ADD COLUMN checks integer NOT NULL DEFAULT 0,
      ADD COLUMN next_at timestamptz,
      ADD COLUMN refreshed boolean NOT NULL DEFAULT false,
      ADD COLUMN exhausted boolean NOT NULL DEFAULT false,
      ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now()`);
    await q.query(`CREATE TABLE workers (
      worker_id text PRIMARY KEY,
      started_at timestamptz NOT NULL DEFAULT now(),
      heartbeat_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE rate_slots (
      key text NOT NULL,
      taken_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query('CREATE INDEX rate_slots_key_taken_at ON rate_slots (key, taken_at DESC)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE rate_slots');
    await q.query('DROP TABLE workers');
    await q.query(`ALTER TABLE attempts DROP COLUMN seq, DROP COLUMN worker_id, DROP COLUMN checkpoint, DROP COLUMN processing_since,
      DROP COLUMN checks, DROP COLUMN next_at, DROP COLUMN refreshed, DROP COLUMN exhausted, DROP COLUMN updated_at`);
  }
}
