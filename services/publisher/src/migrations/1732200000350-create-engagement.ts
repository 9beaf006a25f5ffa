import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Engagement figures of published posts, one row per collection stage (about 1 h, 24 h and 7 days
 * after publishing), with the time they were collected or why they could not be.
 */
export class CreateEngagement1732200000350 implements MigrationInterface {
  name = 'CreateEngagement1732200000350';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE engagement_collections (
      post_id text NOT NULL,
      stage integer NOT NULL,
      account_id text NOT NULL,
      platform text NOT NULL,
      platform_post_id text NOT NULL,
      views bigint,
      likes bigint,
      comments bigint,
      shares bigint,
      error text,
      collected_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (post_id, stage)
    )`);
    await q.query('CREATE INDEX engagement_collections_account ON engagement_collections (account_id, post_id)');
    await q.query(`CREATE INDEX attempts_published_finished_at ON attempts (finished_at) WHERE state = 'published'`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX attempts_published_finished_at');
    await q.query('DROP TABLE engagement_collections');
  }
}
