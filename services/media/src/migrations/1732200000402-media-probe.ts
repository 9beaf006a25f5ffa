import type { MigrationInterface, QueryRunner } from 'typeorm';

export class MediaProbe1732200000402 implements MigrationInterface {
  name = 'MediaProbe1732200000402';
  async up(q: QueryRunner): Promise<void> {
    // What ffprobe read when the media was stored (container, size, duration, codecs), as the API
    // shows it. Null for media stored before files were probed: the platform rules skip it.
    await q.query('ALTER TABLE media ADD COLUMN probe jsonb');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE media DROP COLUMN probe');
  }
}
