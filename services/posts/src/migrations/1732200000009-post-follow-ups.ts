import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a post publishes after itself and what became of it: `first_comment` `{ text, status,
 * permalink, failedReason }` (null: none asked for) and, on Threads, `thread`, the chain of
 * replies as a list of the same.
 */
export class PostFollowUps1732200000009 implements MigrationInterface {
  name = 'PostFollowUps1732200000009';
  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE posts ADD COLUMN first_comment jsonb, ADD COLUMN thread jsonb NOT NULL DEFAULT '[]'::jsonb`,
    );
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE posts DROP COLUMN first_comment, DROP COLUMN thread');
  }
}
