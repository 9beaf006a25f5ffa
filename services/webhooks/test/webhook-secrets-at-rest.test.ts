import { randomBytes } from 'node:crypto';
import { AppError, Rpc, type Principal } from '@postbus/contracts';
import { KeyRing, openDataSource } from '@postbus/kit';
import { loggedBy, useTestEnv } from '@postbus/testing';
import { command as rotateCommand } from '../../../scripts/commands/rotate-webhook-key.command';
import { readConfig } from '../src/config';
import { EndpointRepository } from '../src/endpoints/endpoint.repository';
import { WebhookSecretBox } from '../src/endpoints/webhook-secret-box';
import { newWebhookSecret } from '../src/endpoints/webhook-secret';
import { start } from '../src/main';
import { migrations } from '../src/migrations';
import { signingSecrets } from '../src/sending/attempt-delivery.use-case';

const K1 = randomBytes(32).toString('base64');
const K2 = randomBytes(32).toString('base64');
const principal: Principal = {
  accountId: 'acc_whsec',
  userId: 'usr_whsec',
  credential: { type: 'api_key', id: 'key_whsec' },
  scopes: ['webhook:read', 'webhook:write'],
  profileIds: 'all',
};

const ctx = useTestEnv('webhook_secrets');

const boot = (keys: Record<string, string>) => start({ ...ctx.env.env, WEBHOOKS_ALLOW_LOOPBACK: 'true', ...keys });
const create = () =>
  ctx.bus.rpc.call(Rpc.webhooksCreate, { url: 'http://127.0.0.1:9/hook', events: ['post.published'] }, principal);
const stored = async (id: string): Promise<{ secret: string; previous_secret: string | null }> =>
  (await ctx.db.query('SELECT secret, previous_secret FROM webhooks.endpoints WHERE id = $1', [id])).rows[0];

/** The secrets an endpoint signs with now, opened as the delivery loop opens them. */
async function signingSecretsOf(id: string, keys: Record<string, string>, keyId: string): Promise<string[]> {
  const ds = await openDataSource({ url: ctx.env.databaseUrl, schema: 'webhooks', migrations });
  try {
    const box = new WebhookSecretBox(new KeyRing(keyId, keys));
    const endpoint = (await new EndpointRepository(ds, box).findByIds([id])).get(id)!;
    return signingSecrets(box, endpoint, new Date());
  } finally {
    await ds.destroy();
  }
}

function runRotation(args: Record<string, string | true>): Promise<string> {
  return loggedBy(() => rotateCommand.run(args, { bus: async () => ctx.bus, env: {} }));
}

describe('webhook signing secrets at rest', () => {
  test('when an endpoint is created and its secret rotated, then both secrets are stored sealed, bound to their endpoint and column, and still sign', async () => {
    const svc = await boot({ WEBHOOK_SECRET_KEY_ID: 'k1', WEBHOOK_SECRET_ENCRYPTION_KEY: K1 });
    let created: { id: string; secret: string };
    let rotated: { secret: string };
    let other: { id: string };
    try {
      created = await create();
      rotated = await ctx.bus.rpc.call(Rpc.webhooksRotateSecret, { id: created.id }, principal);
      other = await create();
    } finally {
      await svc.lifecycle.stop();
    }
    const row = await stored(created.id);
    const dump = (await ctx.db.query('SELECT row_to_json(e)::text AS row FROM webhooks.endpoints e')).rows
      .map((r) => r.row)
      .join('\n');

    expect(row.secret).toMatch(/^v2:k1:/);
    expect(row.previous_secret).toMatch(/^v2:k1:/);
    for (const secret of [created.secret, rotated.secret]) {
      expect(dump).not.toContain(secret);
      expect(dump).not.toContain(secret.slice('whsec_'.length));
      expect(dump).not.toContain(Buffer.from(secret.slice('whsec_'.length), 'base64').toString('hex'));
    }
    expect(await signingSecretsOf(created.id, { k1: K1 }, 'k1')).toEqual([rotated.secret, created.secret]);

    // Copied to another endpoint, or from one column to the other, a sealed secret does not open.
    await ctx.db.query('UPDATE webhooks.endpoints SET secret = $2 WHERE id = $1', [other.id, row.secret]);
    await expect(signingSecretsOf(other.id, { k1: K1 }, 'k1')).rejects.toThrow();
    await ctx.db.query('UPDATE webhooks.endpoints SET secret = previous_secret WHERE id = $1', [created.id]);
    await expect(signingSecretsOf(created.id, { k1: K1 }, 'k1')).rejects.toThrow();
    await ctx.db.query('DELETE FROM webhooks.endpoints WHERE id = ANY($1)', [[created.id, other.id]]);
  });

  test('when endpoints hold secrets in clear from an earlier version, then the service seals them at boot and they sign as before', async () => {
    let id: string;
    const first = await boot({ WEBHOOK_SECRET_KEY_ID: 'k1', WEBHOOK_SECRET_ENCRYPTION_KEY: K1 });
    try {
      id = (await create()).id;
    } finally {
      await first.lifecycle.stop();
    }
    const clear = newWebhookSecret();
    const clearPrevious = newWebhookSecret();
    await ctx.db.query(
      `UPDATE webhooks.endpoints SET secret = $2, previous_secret = $3, previous_secret_expires_at = now() + interval '1 hour' WHERE id = $1`,
      [id, clear, clearPrevious],
    );
    await expect(signingSecretsOf(id, { k1: K1 }, 'k1')).rejects.toThrow('not a sealed value');

    const second = await boot({ WEBHOOK_SECRET_KEY_ID: 'k1', WEBHOOK_SECRET_ENCRYPTION_KEY: K1 });
    await second.lifecycle.stop();

    const row = await stored(id);
    expect(row.secret).toMatch(/^v2:k1:/);
    expect(row.previous_secret).toMatch(/^v2:k1:/);
    expect(await signingSecretsOf(id, { k1: K1 }, 'k1')).toEqual([clear, clearPrevious]);
  });

  test('when the key changes (pnpm postbus rotate-webhook-key), then every secret is re-sealed under the new key and the old key is no longer needed', async () => {
    const first = await boot({ WEBHOOK_SECRET_KEY_ID: 'k1', WEBHOOK_SECRET_ENCRYPTION_KEY: K1 });
    let created: { id: string; secret: string };
    try {
      created = await create();
    } finally {
      await first.lifecycle.stop();
    }

    const second = await boot({
      WEBHOOK_SECRET_KEY_ID: 'k2',
      WEBHOOK_SECRET_ENCRYPTION_KEY: K2,
      WEBHOOK_SECRET_PREVIOUS_KEYS: `k1:${K1}`,
    });
    let refused: unknown;
    let output: string;
    try {
      refused = await runRotation({ 'key-id': 'k9' }).catch((e: unknown) => e);
      output = await runRotation({ 'key-id': 'k2' });
    } finally {
      await second.lifecycle.stop();
    }
    const sealed = (await ctx.db.query('SELECT secret, previous_secret FROM webhooks.endpoints')).rows.flatMap((r) =>
      [r.secret, r.previous_secret].filter(Boolean),
    );

    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('validation_error');
    expect((refused as AppError).message).toContain('seals with key k2, not k9');
    expect(output).toMatch(/^Re-encrypted [1-9]\d* webhook secret\(s\) under key k2; 0 already were\./);
    expect(sealed.every((s: string) => s.startsWith('v2:k2:'))).toBe(true);
    expect((await signingSecretsOf(created.id, { k2: K2 }, 'k2'))[0]).toBe(created.secret);
  });

  test('when --generate is passed, then a new 32-byte key is printed with the variables to set', async () => {
    const output = await runRotation({ generate: true, 'key-id': 'k3' });

    expect(output).toContain('WEBHOOK_SECRET_KEY_ID=k3');
    expect(Buffer.from(output.match(/WEBHOOK_SECRET_ENCRYPTION_KEY=(\S+)/)![1], 'base64')).toHaveLength(32);
    expect(output).toContain('WEBHOOK_SECRET_PREVIOUS_KEYS=<current id>:<current key>');
  });

  test('when production keeps the development key, or the key is not 32 bytes, then the configuration is refused naming it', () => {
    expect(() => readConfig({ POSTBUS_ENV: 'production' })).toThrow(
      /WEBHOOK_SECRET_ENCRYPTION_KEY must be set in production/,
    );
    expect(() => readConfig({ WEBHOOK_SECRET_ENCRYPTION_KEY: Buffer.alloc(16).toString('base64') })).toThrow(
      /WEBHOOK_SECRET_ENCRYPTION_KEY must be 32 bytes/,
    );
    expect(() => readConfig({ WEBHOOK_SECRET_PREVIOUS_KEYS: 'k0' })).toThrow(/WEBHOOK_SECRET_PREVIOUS_KEYS/);
    expect(
      readConfig({ POSTBUS_ENV: 'production', WEBHOOK_SECRET_KEY_ID: 'k2', WEBHOOK_SECRET_ENCRYPTION_KEY: K2 })
        .WEBHOOK_SECRET_KEY_ID,
    ).toBe('k2');
  });
});
