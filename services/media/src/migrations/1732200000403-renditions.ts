import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Renditions1732200000403 implements MigrationInterface {
  name = 'Renditions1732200000403';
  async up(q: QueryRunner): Promise<void> {
    // A copy of a media made to fit one platform target. Its id is the media id it is stored
    // under once made; until then only this row says it exists (processing, percent).
    await q.query(`CREATE TABLE renditions (
      id text PRIMARY KEY,
      account_id text NOT NULL,
      source_media_id text NOT NULL,
      source_sha256 text NOT NULL,
      preset text NOT NULL,
      content_type text NOT NULL,
      status text NOT NULL CHECK (status IN ('processing', 'ready', 'failed', 'discarded')),
      percent integer NOT NULL DEFAULT 0,
      failed_reason text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    // The same bytes made for the same preset are made once per account, whichever media row holds them.
    await q.query(
      `CREATE UNIQUE INDEX renditions_dedup ON renditions (account_id, source_sha256, preset) WHERE status <> 'discarded'`,
    );
    await q.query('ALTER TABLE media DROP CONSTRAINT media_origin_check');
    await q.query(
      `ALTER TABLE media ADD CONSTRAINT media_origin_check CHECK (origin IN ('upload', 'url', 'rendition'))`,
    );
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE renditions');
    await q.query(`DELETE FROM media WHERE origin = 'rendition'`);
    await q.query('ALTER TABLE media DROP CONSTRAINT media_origin_check');
    await q.query(`ALTER TABLE media ADD CONSTRAINT media_origin_check CHECK (origin IN ('upload', 'url'))`);
  }
}
