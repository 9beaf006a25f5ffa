import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateProfiles1732200000101 implements MigrationInterface {
  name = 'CreateProfiles1732200000101';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE profiles (
      id text PRIMARY KEY,
      account_id text NOT NULL,
      platform text NOT NULL,
      platform_user_id text NOT NULL,
      handle text NOT NULL,
      profile_url text NOT NULL,
      profile_image_url text,
      status text NOT NULL DEFAULT 'active',
      access_token_enc text NOT NULL,
      refresh_token_enc text,
      token_expires_at timestamptz,
      connected_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, platform, platform_user_id)
    )`);
    await q.query('CREATE INDEX profiles_account ON profiles (account_id, platform)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE profiles');
  }
}
