import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreatePosts1732200000001 implements MigrationInterface {
  name = 'CreatePosts1732200000001';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE posts (
      id text PRIMARY KEY,
      account_id text NOT NULL,
      request_id text NOT NULL,
      profile_id text NOT NULL,
      platform text NOT NULL,
      status text NOT NULL,
      caption text NOT NULL DEFAULT '',
      title text,
      media_urls jsonb NOT NULL DEFAULT '[]',
      media_id text,
      platform_meta jsonb,
      external_id text,
      category text,
      scheduled_time timestamptz NOT NULL,
      dispatched_at timestamptz,
      published_at timestamptz,
      failed_reason text,
      permalink text,
      platform_post_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(
      `CREATE INDEX posts_due ON posts (scheduled_time) WHERE status = 'scheduled' AND dispatched_at IS NULL`,
    );
    await q.query(`CREATE INDEX posts_account ON posts (account_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX posts_external ON posts (account_id, external_id) WHERE external_id IS NOT NULL`);
    await q.query(`CREATE TABLE create_requests (
      account_id text NOT NULL,
      kind text NOT NULL,
      key text NOT NULL,
      payload_hash text NOT NULL,
      response jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (account_id, kind, key)
    )`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE create_requests');
    await q.query('DROP TABLE posts');
  }
}
