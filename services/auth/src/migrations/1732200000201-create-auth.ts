import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAuth1732200000201 implements MigrationInterface {
  name = 'CreateAuth1732200000201';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE accounts (
      id text PRIMARY KEY,
      name text NOT NULL,
      plan text NOT NULL DEFAULT 'trial',
      tester boolean NOT NULL DEFAULT false,
      disabled boolean NOT NULL DEFAULT false,
      trial_ends_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE users (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts(id),
      email text NOT NULL,
      password_hash text,
      disabled boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query('CREATE UNIQUE INDEX users_email ON users (lower(email))');
    await q.query(`CREATE TABLE api_keys (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts(id),
      user_id text NOT NULL REFERENCES users(id),
      name text NOT NULL,
      prefix text NOT NULL UNIQUE,
      hash bytea NOT NULL,
      scopes text[] NOT NULL,
      profile_ids jsonb NOT NULL DEFAULT '"all"',
      expires_at timestamptz,
      last_used_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query('CREATE INDEX api_keys_account ON api_keys (account_id, created_at DESC)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE api_keys');
    await q.query('DROP TABLE users');
    await q.query('DROP TABLE accounts');
  }
}
