import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateMedia1732200000401 implements MigrationInterface {
  name = 'CreateMedia1732200000401';
  async up(q: QueryRunner): Promise<void> {
    // One stored object per distinct content: identical bytes share it, whoever sent them.
    await q.query(`CREATE TABLE blobs (
      sha256 text PRIMARY KEY,
      storage_key text NOT NULL UNIQUE,
      size_bytes bigint NOT NULL,
      content_type text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE media (
      id text PRIMARY KEY,
      account_id text NOT NULL,
      status text NOT NULL CHECK (status IN ('ready', 'deleted')),
      sha256 text NOT NULL,
      content_type text NOT NULL,
      size_bytes bigint NOT NULL,
      origin text NOT NULL CHECK (origin IN ('upload', 'url')),
      source_url text,
      filename text,
      created_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz
    )`);
    await q.query(
      `CREATE INDEX media_account_page ON media (account_id, created_at DESC, id DESC) WHERE status = 'ready'`,
    );
    await q.query(
      `CREATE UNIQUE INDEX media_account_link ON media (account_id, source_url) WHERE status = 'ready' AND source_url IS NOT NULL`,
    );
    await q.query(`CREATE INDEX media_content ON media (sha256) WHERE status = 'ready'`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE media');
    await q.query('DROP TABLE blobs');
  }
}
