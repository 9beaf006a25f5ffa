import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * platform_throttles: what the platforms said about throttling, shared by every publisher
 * process, so a throttle one post met makes the others for the same app or account wait too.
 * attempts.throttled_since: when the post first waited on a throttle, bounding the wait in all.
 */
export class PlatformThrottles1732200000360 implements MigrationInterface {
  name = 'PlatformThrottles1732200000360';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE platform_throttles (
      key text PRIMARY KEY,
      until timestamptz NOT NULL,
      strikes integer NOT NULL DEFAULT 1,
      reason text,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query('ALTER TABLE attempts ADD COLUMN throttled_since timestamptz');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE attempts DROP COLUMN throttled_since');
    await q.query('DROP TABLE platform_throttles');
  }
}
