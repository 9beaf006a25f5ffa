import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Templates per account, the inbox of comments heard (one row per platform comment) and what was done with each. */
export class CreateAutomation1732200000701 implements MigrationInterface {
  name = 'CreateAutomation1732200000701';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE templates (
      account_id text PRIMARY KEY,
      document jsonb NOT NULL,
      revision integer NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE comments (
      id text PRIMARY KEY,
      platform text NOT NULL,
      comment_id text NOT NULL,
      platform_account_id text NOT NULL,
      post_id text,
      received_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (platform, comment_id)
    )`);
    await q.query(`CREATE TABLE activity (
      id text PRIMARY KEY,
      account_id text NOT NULL,
      profile_id text NOT NULL,
      platform text NOT NULL,
      comment_id text NOT NULL,
      post_id text,
      author_id text,
      author_name text,
      comment_text text NOT NULL,
      state text NOT NULL,
      reason text NOT NULL,
      detail text NOT NULL,
      rule_id text,
      matched_keywords text[] NOT NULL DEFAULT '{}',
      action text,
      reply_text text,
      reply_id text,
      attempts integer NOT NULL DEFAULT 0,
      received_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL,
      replied_at timestamptz,
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, platform, comment_id)
    )`);
    await q.query('CREATE INDEX activity_account ON activity (account_id, created_at DESC, id DESC)');
    // The caps count the replies a rule sent or is sending, per post and per hour.
    await q.query(
      `CREATE INDEX activity_caps ON activity (account_id, rule_id, profile_id, created_at) WHERE state IN ('queued', 'sending', 'retrying', 'replied')`,
    );
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE activity');
    await q.query('DROP TABLE comments');
    await q.query('DROP TABLE templates');
  }
}
