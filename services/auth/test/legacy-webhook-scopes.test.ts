import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { LEGACY_WEBHOOK_ACCESS } from '@postbus/contracts';
import { openDataSource } from '@postbus/kit';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import { AccountRepository } from '../src/accounts/account.repository';
import { ApiKeyRepository } from '../src/keys/api-key.repository';
import { issueApiKey } from '../src/keys/issue-key.use-case';
import { verifyApiKey } from '../src/keys/verify-key.use-case';
import { migrations } from '../src/migrations';
import { LegacyWebhookScopes1732200000205 } from '../src/migrations/1732200000205-legacy-webhook-scopes';

let env: TestEnv;
let ds: DataSource;
let accountId: string;

const SUNSET = new Date(LEGACY_WEBHOOK_ACCESS.sunset);
const beforeSunset = new Date(SUNSET.getTime() - 86_400_000);
const atSunset = SUNSET;

beforeAll(async () => {
  env = await createTestEnv('auth_legacy_webhook_scopes');
  ds = await openDataSource({ url: env.databaseUrl, schema: 'auth', migrations });
  // A paid plan: the verdict then depends on the key alone, whatever the date.
  ({ accountId } = await new AccountRepository(ds, 14).create({
    email: `keys-${randomBytes(4).toString('hex')}@example.com`,
    plan: 'pro',
  }));
});
afterAll(async () => {
  await ds?.destroy();
  await env?.drop();
});

const issue = (scopes: string[]) =>
  issueApiKey(new ApiKeyRepository(ds), { accountId, name: scopes.join(' '), scopes }, beforeSunset);

async function rerunMigration(): Promise<void> {
  const q = ds.createQueryRunner();
  try {
    const migration = new LegacyWebhookScopes1732200000205();
    await migration.down(q);
    await migration.up(q);
  } finally {
    await q.release();
  }
}

test('when the migration runs, then exactly the keys that hold post:read are marked, and keys issued after it are not', async () => {
  const reader = await issue(['post:read']);
  const writer = await issue(['post:write', 'media:write']);
  await rerunMigration();
  const later = await issue(['post:read', 'post:write']);
  const marks: { id: string; legacy_webhook_scopes: boolean }[] = await ds.query(
    'SELECT id, legacy_webhook_scopes FROM api_keys WHERE id = ANY($1)',
    [[reader.keyId, writer.keyId, later.keyId]],
  );
  expect(Object.fromEntries(marks.map((m) => [m.id, m.legacy_webhook_scopes]))).toEqual({
    [reader.keyId]: true,
    [writer.keyId]: false,
    [later.keyId]: false,
  });
});

test('when a marked key is verified before the sunset, then it also holds webhook:read and webhook:write, named as deprecated; from the sunset on, only what it was issued with', async () => {
  const { key, keyId } = await issue(['post:read']);
  await ds.query('UPDATE api_keys SET legacy_webhook_scopes = true WHERE id = $1', [keyId]);
  expect(await verifyApiKey(new ApiKeyRepository(ds), key, beforeSunset)).toMatchObject({
    scopes: ['post:read', 'webhook:read', 'webhook:write'],
    deprecatedScopes: ['webhook:read', 'webhook:write'],
  });
  const after = await verifyApiKey(new ApiKeyRepository(ds), key, atSunset);
  expect(after.scopes).toEqual(['post:read']);
  expect(after.deprecatedScopes).toBeUndefined();
});

test('when a key issued with only post:read is not marked, then it holds no webhook scope at any time', async () => {
  const { key } = await issue(['post:read']);
  const principal = await verifyApiKey(new ApiKeyRepository(ds), key, beforeSunset);
  expect(principal.scopes).toEqual(['post:read']);
  expect(principal.deprecatedScopes).toBeUndefined();
});

test('when the keys are listed, then a marked key shows the webhook scopes it holds until the sunset, apart from the scopes it was issued with', async () => {
  const { keyId } = await issue(['post:read', 'post:write']);
  await ds.query('UPDATE api_keys SET legacy_webhook_scopes = true WHERE id = $1', [keyId]);
  const keys = new ApiKeyRepository(ds);
  const listed = (await keys.listForAccount(accountId, beforeSunset)).find((k) => k.keyId === keyId);
  expect(listed).toMatchObject({
    scopes: ['post:read', 'post:write'],
    deprecatedScopes: ['webhook:read', 'webhook:write'],
  });
  expect((await keys.listForAccount(accountId, atSunset)).find((k) => k.keyId === keyId)).not.toHaveProperty(
    'deprecatedScopes',
  );
});
