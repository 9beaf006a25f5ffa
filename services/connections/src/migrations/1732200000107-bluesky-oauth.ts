import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bluesky through OAuth (https://atproto.com/specs/oauth): a profile keeps, beside its DPoP-bound
 * tokens, the session's DPoP private key (sealed like the tokens), the PDS its DID names and the
 * authorization server that issued the tokens. App-password profiles leave them null.
 */
export class BlueskyOAuth1732200000107 implements MigrationInterface {
  name = 'BlueskyOAuth1732200000107';
  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE profiles ADD COLUMN dpop_jwk_enc text, ADD COLUMN pds_url text, ADD COLUMN oauth_issuer text',
    );
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE profiles DROP COLUMN dpop_jwk_enc, DROP COLUMN pds_url, DROP COLUMN oauth_issuer');
  }
}
