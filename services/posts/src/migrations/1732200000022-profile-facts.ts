import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What posts knows of connections' profiles, to check a create without asking connections:
 * each profile's account, platform and status as of `revision`, heard from connection.changed or
 * read from connections when missing. `checked_at`: when connections last said so; an older
 * fact is asked again (POSTS_PROFILE_FACTS_MAX_AGE_MS).
 */
export class ProfileFacts1732200000022 implements MigrationInterface {
  name = 'ProfileFacts1732200000022';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE profile_facts (
      profile_id text PRIMARY KEY,
      account_id text NOT NULL,
      platform text NOT NULL,
      status text NOT NULL,
      connected_at timestamptz NOT NULL,
      revision bigint NOT NULL,
      checked_at timestamptz NOT NULL
    )`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE profile_facts');
  }
}
