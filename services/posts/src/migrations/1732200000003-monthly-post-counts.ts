import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Posts created per account and calendar month (UTC), kept as a counter: the quota check reads
 * and bumps one row instead of counting every post of the month under the account's lock.
 * Filled from the posts already there.
 */
export class MonthlyPostCounts1732200000003 implements MigrationInterface {
  name = 'MonthlyPostCounts1732200000003';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE monthly_post_counts (
      account_id text NOT NULL,
      month date NOT NULL,
      created integer NOT NULL,
      PRIMARY KEY (account_id, month)
    )`);
    await q.query(`INSERT INTO monthly_post_counts (account_id, month, created)
      SELECT account_id, date_trunc('month', created_at AT TIME ZONE 'UTC')::date, count(*) FROM posts GROUP BY 1, 2`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE monthly_post_counts');
  }
}
