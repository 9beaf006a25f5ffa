import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a refresh of a rotating refresh token (TikTok) may have reached the platform but its answer
 * was lost: the next refusal of the stored token is then most likely that lost rotation, not a
 * revoked grant.
 */
export class RefreshUnanswered1732200000104 implements MigrationInterface {
  name = 'RefreshUnanswered1732200000104';
  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE profiles ADD COLUMN refresh_unanswered_at timestamptz');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE profiles DROP COLUMN refresh_unanswered_at');
  }
}
