import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The OAuth 2.1 authorization server: registered clients, authorization codes, grants (one per
 * consent: a token family) and the tokens issued under them. Secrets are kept only as SHA-256 hashes.
 * Client ids are text without a foreign key: a client ID metadata document's id is its URL.
 */
export class CreateOauth1732200000203 implements MigrationInterface {
  name = 'CreateOauth1732200000203';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE oauth_clients (
      id text PRIMARY KEY,
      secret_hash bytea,
      name text NOT NULL,
      redirect_uris text[] NOT NULL,
      grant_types text[] NOT NULL,
      token_endpoint_auth_method text NOT NULL,
      metadata jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE oauth_grants (
      id text PRIMARY KEY,
      client_id text NOT NULL,
      user_id text NOT NULL REFERENCES users(id),
      account_id text NOT NULL REFERENCES accounts(id),
      scopes text[] NOT NULL,
      resource text NOT NULL,
      revoked_at timestamptz,
      revoked_reason text,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query('CREATE INDEX oauth_grants_user ON oauth_grants (user_id)');
    await q.query(`CREATE TABLE oauth_codes (
      hash bytea PRIMARY KEY,
      client_id text NOT NULL,
      user_id text NOT NULL REFERENCES users(id),
      account_id text NOT NULL REFERENCES accounts(id),
      redirect_uri text NOT NULL,
      scopes text[] NOT NULL,
      resource text NOT NULL,
      code_challenge text NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      grant_id text REFERENCES oauth_grants(id),
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query('CREATE INDEX oauth_codes_expiry ON oauth_codes (expires_at)');
    await q.query(`CREATE TABLE oauth_tokens (
      id text PRIMARY KEY,
      grant_id text NOT NULL REFERENCES oauth_grants(id),
      kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
      hash bytea NOT NULL UNIQUE,
      scopes text[] NOT NULL,
      expires_at timestamptz NOT NULL,
      rotated_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query('CREATE INDEX oauth_tokens_grant ON oauth_tokens (grant_id)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE oauth_tokens');
    await q.query('DROP TABLE oauth_codes');
    await q.query('DROP TABLE oauth_grants');
    await q.query('DROP TABLE oauth_clients');
  }
}
