import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A profile's default schedule, where `"scheduledTime": "next"` queues its posts. The primary key
 * keeps it to one per profile even when two schedules are changed at once; `default_for` on the
 * schedule repeats the same profiles for reading.
 */
export class DefaultSchedules1732200000007 implements MigrationInterface {
  name = 'DefaultSchedules1732200000007';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE schedules ADD COLUMN default_for text[] NOT NULL DEFAULT '{}'`);
    await q.query(`CREATE TABLE schedule_defaults (
      account_id text NOT NULL,
      profile_id text NOT NULL,
      schedule_id text NOT NULL REFERENCES schedules (id) ON DELETE CASCADE,
      PRIMARY KEY (account_id, profile_id)
    )`);
    await q.query('CREATE INDEX schedule_defaults_schedule ON schedule_defaults (schedule_id)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE schedule_defaults');
    await q.query('ALTER TABLE schedules DROP COLUMN default_for');
  }
}
