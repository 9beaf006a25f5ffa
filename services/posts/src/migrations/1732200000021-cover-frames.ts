import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The cover frame made for a post's video (normalize, no cover given): cover_media_id names it,
 * awaiting_cover_id holds the post back while it is being made, as awaiting_media_id does for
 * the video's rendition.
 */
export class CoverFrames1732200000021 implements MigrationInterface {
  name = 'CoverFrames1732200000021';
  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE posts ADD COLUMN cover_media_id text, ADD COLUMN awaiting_cover_id text');
    await q.query(`CREATE INDEX posts_awaiting_cover ON posts (awaiting_cover_id) WHERE awaiting_cover_id IS NOT NULL`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX posts_awaiting_cover');
    await q.query('ALTER TABLE posts DROP COLUMN awaiting_cover_id, DROP COLUMN cover_media_id');
  }
}
