import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * webhook:read and webhook:write now guard the webhook routes, which post:read opened before.
 * Keys that exist now and hold post:read are marked, so they keep webhook access through the
 * deprecation period (LEGACY_WEBHOOK_ACCESS); keys issued from now on are never marked.
 */
export class LegacyWebhookScopes1732200000205 implements MigrationInterface {
  name = 'LegacyWebhookScopes1732200000205';
  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE api_keys ADD COLUMN legacy_webhook_scopes boolean NOT NULL DEFAULT false');
    await q.query(`UPDATE api_keys SET legacy_webhook_scopes = true WHERE 'post:read' = ANY (scopes)`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE api_keys DROP COLUMN legacy_webhook_scopes');
  }
}
