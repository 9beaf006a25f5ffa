import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A counter that grows with every change of a profile's status, announced in connection.changed:
 * services keeping a profile's facts apply a change only when it is newer than what they hold, so
 * events heard out of order, and answers read before an event came, never bring back an old status.
 */
export class ProfileRevision1732200000106 implements MigrationInterface {
  name = 'ProfileRevision1732200000106';
  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE profiles ADD COLUMN revision bigint NOT NULL DEFAULT 1');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE profiles DROP COLUMN revision');
  }
}
