import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What the platform did differently from what was asked (e.g. YouTube kept the video private), as `[{ code, message }]`. */
export class PostWarnings1732200000005 implements MigrationInterface {
  name = 'PostWarnings1732200000005';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE posts ADD COLUMN warnings jsonb NOT NULL DEFAULT '[]'::jsonb`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE posts DROP COLUMN warnings');
  }
}
