import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Mastodon: Postbus registers itself as an app on each instance someone connects (one app per
 * instance and redirect URI, its secret sealed), and a connection request remembers the instance
 * between the handoff page and the callback.
 */
export class MastodonApps1732200000105 implements MigrationInterface {
  name = 'MastodonApps1732200000105';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE mastodon_apps (
      instance text NOT NULL,
      redirect_uri text NOT NULL,
      client_id text NOT NULL,
      client_secret_enc text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (instance, redirect_uri)
    )`);
    await q.query('ALTER TABLE connection_requests ADD COLUMN instance text');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE connection_requests DROP COLUMN instance');
    await q.query('DROP TABLE mastodon_apps');
  }
}
