import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a dispatched post was last announced again because no outcome came back in time, and
 * an index over the posts still in flight (dispatched, not yet ended) that the check reads.
 */
export class Redispatch1732200000004 implements MigrationInterface {
  name = 'Redispatch1732200000004';
  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE posts ADD COLUMN redispatched_at timestamptz');
    await q.query(
      `CREATE INDEX posts_in_flight ON posts (dispatched_at) WHERE status = 'scheduled' AND dispatched_at IS NOT NULL`,
    );
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX posts_in_flight');
    await q.query('ALTER TABLE posts DROP COLUMN redispatched_at');
  }
}
