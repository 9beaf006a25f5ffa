import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateWebhooks1732200000601 implements MigrationInterface {
  name = 'CreateWebhooks1732200000601';
  async up(q: QueryRunner): Promise<void> {
    // Secrets sign every delivery, so they are kept as issued; previous_secret signs too until it expires.
    await q.query(`CREATE TABLE endpoints (
      id text PRIMARY KEY,
      account_id text NOT NULL,
      url text NOT NULL,
      description text,
      events text[] NOT NULL,
      status text NOT NULL CHECK (status IN ('enabled', 'disabled', 'deleted')),
      disabled_reason text,
      disabled_at timestamptz,
      failing_since timestamptz,
      secret text NOT NULL,
      previous_secret text,
      previous_secret_expires_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz
    )`);
    await q.query(
      `CREATE INDEX endpoints_account ON endpoints (account_id, created_at DESC, id DESC) WHERE status <> 'deleted'`,
    );
    await q.query(`CREATE INDEX endpoints_subscribed ON endpoints USING gin (events) WHERE status = 'enabled'`);

    // The durable queue: one row per (endpoint, event), claimed with FOR UPDATE SKIP LOCKED and leased while sent.
    await q.query(`CREATE TABLE deliveries (
      id text PRIMARY KEY,
      endpoint_id text NOT NULL REFERENCES endpoints (id),
      account_id text NOT NULL,
      event_id text NOT NULL,
      event_type text NOT NULL,
      body text NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'cancelled')),
      attempt_count integer NOT NULL DEFAULT 0,
      scheduled_attempts integer NOT NULL DEFAULT 0,
      single_attempt boolean NOT NULL DEFAULT false,
      next_attempt_at timestamptz,
      claim_token uuid,
      last_response_code integer,
      delivered_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (endpoint_id, event_id)
    )`);
    await q.query(`CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX deliveries_endpoint_page ON deliveries (endpoint_id, created_at DESC, id DESC)`);

    await q.query(`CREATE TABLE delivery_attempts (
      delivery_id text NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
      attempt_no integer NOT NULL,
      attempted_at timestamptz NOT NULL,
      duration_ms integer NOT NULL,
      response_code integer,
      error text,
      PRIMARY KEY (delivery_id, attempt_no)
    )`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE delivery_attempts');
    await q.query('DROP TABLE deliveries');
    await q.query('DROP TABLE endpoints');
  }
}
