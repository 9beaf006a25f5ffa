import { createCipheriv, randomBytes } from 'node:crypto';
import { AppError, Rpc, type Principal } from '@postbus/contracts';
import { hiddenFields, loggedBy, useTestEnv, Visitor } from '@postbus/testing';
import { command as rotateCommand } from '../../../scripts/commands/rotate-token-key.command';
import { readConfig } from '../src/config';
import { start } from '../src/main';
import { sealedAt, TokenVault } from '../src/vault/token-vault';

const K1 = randomBytes(32).toString('base64');
const K2 = randomBytes(32).toString('base64');

/** A token sealed the way earlier versions did: `keyId:iv:tag:ciphertext`, bound to nothing. */
function sealUnbound(keyId: string, key: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key, 'base64'), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [keyId, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
}

describe('the token vault', () => {
  const vault = new TokenVault('k1', { k1: K1 });
  const at = sealedAt('prf_1', 'access_token_enc');

  test('when a token is sealed, then it is bound to its row and column: it opens there and nowhere else', () => {
    const sealed = vault.seal('secret-token', at);

    expect(sealed).toMatch(/^v2:k1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(vault.open(sealed, at)).toBe('secret-token');
    expect(() => vault.open(sealed, sealedAt('prf_2', 'access_token_enc'))).toThrow();
    expect(() => vault.open(sealed, sealedAt('prf_1', 'refresh_token_enc'))).toThrow();
  });

  test('when a token is in the unbound form of earlier versions, then readers refuse it and the upgrade re-seals it bound', () => {
    const unbound = sealUnbound('k1', K1, 'secret-token');

    expect(() => vault.open(unbound, at)).toThrow('rotate-token-key');
    const upgraded = vault.upgrade(unbound, at);
    expect(upgraded.startsWith('v2:k1:')).toBe(true);
    expect(vault.open(upgraded, at)).toBe('secret-token');
  });

  test('when TOKEN_PREVIOUS_KEYS is malformed or production keeps development secrets, then the configuration is refused naming them', () => {
    expect(() => readConfig({ TOKEN_PREVIOUS_KEYS: 'k0' })).toThrow(/TOKEN_PREVIOUS_KEYS/);
    expect(() => readConfig({ TOKEN_PREVIOUS_KEYS: `k0:${Buffer.alloc(8).toString('base64')}` })).toThrow(
      /not 32 bytes/,
    );
    expect(() => readConfig({ POSTBUS_ENV: 'production' })).toThrow(
      /TOKEN_ENCRYPTION_KEY must be set in production[\s\S]*TIKTOK_CLIENT_SECRET must be set in production/,
    );
    expect(
      readConfig({ TOKEN_KEY_ID: 'k2', TOKEN_ENCRYPTION_KEY: K2, TOKEN_PREVIOUS_KEYS: `k1:${K1}` }).TOKEN_PREVIOUS_KEYS,
    ).toEqual({ k1: K1 });
  });
});

describe('rotating the key (pnpm postbus rotate-token-key)', () => {
  const ctx = useTestEnv('conn_vault');
  const principal: Principal = {
    accountId: 'acc_vault',
    userId: 'usr_vault',
    credential: { type: 'api_key', id: 'key_vault' },
    scopes: ['account:write'],
    profileIds: 'all',
  };
  const tokens = ['IGAA-one', 'THAA-two', 'ya29.three'];
  let profileIds: string[];

  const boot = (keys: Record<string, string>) => start({ ...ctx.env.env, CONNECTIONS_HTTP_PORT: '0', ...keys });
  const sealedValues = async () => {
    const profiles = await ctx.db.query(
      'SELECT access_token_enc AS v FROM connections.profiles UNION ALL SELECT code_verifier_enc FROM connections.connection_requests WHERE code_verifier_enc IS NOT NULL',
    );
    return profiles.rows.map((r) => r.v as string);
  };
  const run = (args: Record<string, string | true>) =>
    loggedBy(() => rotateCommand.run(args, { bus: async () => ctx.bus, env: {} }));

  test('when the key changes, then the rotation re-encrypts every token under the new key id and the old key is no longer needed', async () => {
    const first = await boot({ TOKEN_KEY_ID: 'k1', TOKEN_ENCRYPTION_KEY: K1 });
    try {
      profileIds = [];
      for (const [i, accessToken] of tokens.entries()) {
        const p = await ctx.bus.rpc.call(Rpc.connectionsSeedProfile, {
          accountId: principal.accountId,
          platform: ['instagram', 'threads', 'youtube'][i],
          platformUserId: `u${i}`,
          handle: `h${i}`,
          accessToken,
        });
        profileIds.push(p.id);
      }
      // A link in use holds a sealed PKCE verifier.
      const request = await ctx.bus.rpc.call(Rpc.connectionsCreateRequest, { platform: 'tiktok' }, principal);
      const visitor = new Visitor();
      const landing = await visitor.get(`${first.httpUrl}/connect/${request.requestId}`);
      expect(
        (await visitor.post(`${first.httpUrl}/connect/${request.requestId}`, hiddenFields(landing.html))).status,
      ).toBe(303);
    } finally {
      await first.lifecycle.stop();
    }
    expect((await sealedValues()).map((v) => v.split(':').slice(0, 2).join(':'))).toEqual([
      'v2:k1',
      'v2:k1',
      'v2:k1',
      'v2:k1',
    ]);

    const second = await boot({ TOKEN_KEY_ID: 'k2', TOKEN_ENCRYPTION_KEY: K2, TOKEN_PREVIOUS_KEYS: `k1:${K1}` });
    let output: string;
    let again: string;
    try {
      output = await run({ 'key-id': 'k2' });
      again = await run({});
    } finally {
      await second.lifecycle.stop();
    }

    const third = await boot({ TOKEN_KEY_ID: 'k2', TOKEN_ENCRYPTION_KEY: K2 });
    try {
      const opened = await Promise.all(
        profileIds.map((profileId) =>
          ctx.bus.rpc.call(Rpc.connectionsGetCredentials, { profileId, accountId: principal.accountId }),
        ),
      );

      expect(output).toContain('Re-encrypted 4 token(s) under key k2; 0 already were.');
      expect(again).toContain('Re-encrypted 0 token(s) under key k2; 3 already were.');
      expect((await sealedValues()).map((v) => v.split(':').slice(0, 2).join(':'))).toEqual([
        'v2:k2',
        'v2:k2',
        'v2:k2',
        'v2:k2',
      ]);
      expect(opened.map((c) => c.accessToken)).toEqual(tokens);
    } finally {
      await third.lifecycle.stop();
    }
  });

  test('when the answering replica does not use the expected key yet, then the rotation is refused with validation_error', async () => {
    const svc = await boot({ TOKEN_KEY_ID: 'k2', TOKEN_ENCRYPTION_KEY: K2 });
    try {
      const err = await run({ 'key-id': 'k9' }).catch((e: AppError) => e);

      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('validation_error');
      expect((err as AppError).message).toContain('encrypts with key k2, not k9');
    } finally {
      await svc.lifecycle.stop();
    }
  });

  test('when --generate is passed, then a new 32-byte key is printed with the variables to set', async () => {
    const output = await run({ generate: true, 'key-id': 'k3' });

    const key = output.match(/TOKEN_ENCRYPTION_KEY=(\S+)/)![1];
    expect(output).toContain('TOKEN_KEY_ID=k3');
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
    expect(output).toContain('TOKEN_PREVIOUS_KEYS=');
  });
});

describe('tokens bound to their row', () => {
  const ctx = useTestEnv('conn_bound');
  const accountId = 'acc_bound';

  const boot = () =>
    start({ ...ctx.env.env, CONNECTIONS_HTTP_PORT: '0', TOKEN_KEY_ID: 'k1', TOKEN_ENCRYPTION_KEY: K1 });
  const seed = (platformUserId: string, accessToken: string) =>
    ctx.bus.rpc.call(Rpc.connectionsSeedProfile, {
      accountId,
      platform: 'threads',
      platformUserId,
      handle: platformUserId,
      accessToken,
    });
  const credentials = (profileId: string) => ctx.bus.rpc.call(Rpc.connectionsGetCredentials, { profileId, accountId });
  const stored = async (profileId: string) =>
    (
      await ctx.db.query('SELECT access_token_enc, refresh_token_enc FROM connections.profiles WHERE id = $1', [
        profileId,
      ])
    ).rows[0];

  test("when one profile's sealed token is copied into another profile's row, then it does not open there", async () => {
    const svc = await boot();
    try {
      const mine = await seed('u-mine', 'THAA-mine');
      const theirs = await seed('u-theirs', 'THAA-theirs');
      await ctx.db.query(
        'UPDATE connections.profiles SET access_token_enc = (SELECT access_token_enc FROM connections.profiles WHERE id = $1) WHERE id = $2',
        [theirs.id, mine.id],
      );

      await expect(credentials(mine.id)).rejects.toMatchObject({ code: 'internal_error' });
      expect((await credentials(theirs.id)).accessToken).toBe('THAA-theirs');
    } finally {
      await svc.lifecycle.stop();
    }
  });

  test('when a platform account is connected again, then its tokens are sealed to the id it kept', async () => {
    const svc = await boot();
    try {
      const first = await seed('u-again', 'THAA-first');
      const again = await seed('u-again', 'THAA-again');

      expect(again.id).toBe(first.id);
      expect((await credentials(first.id)).accessToken).toBe('THAA-again');
    } finally {
      await svc.lifecycle.stop();
    }
  });

  test('when stored tokens are in the unbound form of earlier versions, then the service re-seals them bound at boot and they still open', async () => {
    let profileId: string;
    let lost: string;
    const first = await boot();
    try {
      profileId = (await seed('u-old', 'THAA-now')).id;
      lost = (await seed('u-lost', 'THAA-lost')).id;
    } finally {
      await first.lifecycle.stop();
    }
    await ctx.db.query('UPDATE connections.profiles SET access_token_enc = $2, refresh_token_enc = $3 WHERE id = $1', [
      profileId,
      sealUnbound('k1', K1, 'THAA-old'),
      sealUnbound('k1', K1, 'THAR-old'),
    ]);
    // Sealed with a key no longer configured: left as it is, and the boot goes on.
    await ctx.db.query('UPDATE connections.profiles SET access_token_enc = $2 WHERE id = $1', [
      lost,
      sealUnbound('k0', K2, 'THAA-lost'),
    ]);

    const second = await boot();
    try {
      const row = await stored(profileId);
      expect(row.access_token_enc.startsWith('v2:k1:')).toBe(true);
      expect(row.refresh_token_enc.startsWith('v2:k1:')).toBe(true);
      expect((await credentials(profileId)).accessToken).toBe('THAA-old');
      expect((await stored(lost)).access_token_enc.startsWith('k0:')).toBe(true);
    } finally {
      await second.lifecycle.stop();
    }
  });
});
