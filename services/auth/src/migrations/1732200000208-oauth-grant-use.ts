import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the settings page shows of a connected application: the client's name as the person saw
 * it on the consent page (a metadata document's name is not stored elsewhere) and when the grant
 * was last used. Grants opened before have neither; the page falls back to the registered name.
 */
export class OauthGrantUse1732200000208 implements MigrationInterface {
  name = 'OauthGrantUse1732200000208';
  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE oauth_codes ADD COLUMN client_name text');
    await q.query('ALTER TABLE oauth_grants ADD COLUMN client_name text, ADD COLUMN last_used_at timestamptz');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE oauth_grants DROP COLUMN client_name, DROP COLUMN last_used_at');
    await q.query('ALTER TABLE oauth_codes DROP COLUMN client_name');
  }
}
