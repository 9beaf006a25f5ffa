import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The rendition (normalize) a post waits for before it may be dispatched: the scheduler passes
 * over a post while it is set, and the rendition watcher reads the posts waiting through the
 * partial index.
 */
export class RenditionWait1732200000020 implements MigrationInterface {
  name = 'RenditionWait1732200000020';
  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE posts ADD COLUMN awaiting_media_id text');
    await q.query(`CREATE INDEX posts_awaiting_media ON posts (awaiting_media_id) WHERE awaiting_media_id IS NOT NULL`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX posts_awaiting_media');
    await q.query('ALTER TABLE posts DROP COLUMN awaiting_media_id');
  }
}
