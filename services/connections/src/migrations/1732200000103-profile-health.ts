import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What a profile's health report needs: the scopes the platform granted and the last refresh failure. */
export class ProfileHealth1732200000103 implements MigrationInterface {
  name = 'ProfileHealth1732200000103';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE profiles
      ADD COLUMN granted_scopes text[],
      ADD COLUMN refresh_error text,
      ADD COLUMN refresh_error_at timestamptz`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE profiles DROP COLUMN granted_scopes, DROP COLUMN refresh_error, DROP COLUMN refresh_error_at',
    );
  }
}
