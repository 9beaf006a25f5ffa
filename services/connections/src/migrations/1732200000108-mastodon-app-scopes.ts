import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Mastodon: each instance app remembers the scopes it was registered with. An instance refuses to
 * authorize a scope its app did not register, so when Postbus asks for more, a new app is registered.
 * Apps registered before this have '' and are replaced on the next connect to their instance.
 */
export class MastodonAppScopes1732200000108 implements MigrationInterface {
  name = 'MastodonAppScopes1732200000108';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE mastodon_apps ADD COLUMN scopes text NOT NULL DEFAULT ''`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE mastodon_apps DROP COLUMN scopes');
  }
}
