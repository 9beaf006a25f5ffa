import { randomBytes } from 'node:crypto';
import { Rpc } from '@postbus/contracts';
import { newDpopKey } from '@postbus/platforms';
import { useTestEnv } from '@postbus/testing';
import { command as rotateCommand } from '../../../scripts/commands/rotate-token-key.command';
import { start } from '../src/main';
import { sealedAt, TokenVault } from '../src/vault/token-vault';

/** A Bluesky OAuth profile's DPoP key is sealed like its tokens, bound to its row, and re-sealed by a key rotation. */
const K1 = randomBytes(32).toString('base64');
const K2 = randomBytes(32).toString('base64');
const accountId = 'acc_dpop';

const ctx = useTestEnv('conn_dpop_key');

const boot = (keys: Record<string, string>) => start({ ...ctx.env.env, CONNECTIONS_HTTP_PORT: '0', ...keys });
const credentials = (profileId: string) => ctx.bus.rpc.call(Rpc.connectionsGetCredentials, { profileId, accountId });

test('when a Bluesky OAuth profile is read and the key rotated, then the publisher gets its PDS and DPoP key, re-sealed under the new key', async () => {
  const key = newDpopKey();
  let profileId = '';
  const first = await boot({ TOKEN_KEY_ID: 'k1', TOKEN_ENCRYPTION_KEY: K1 });
  try {
    const p = await ctx.bus.rpc.call(Rpc.connectionsSeedProfile, {
      accountId,
      platform: 'bluesky',
      platformUserId: 'did:plc:abcdefghijklmnopqrstuvwx',
      handle: 'alice.example',
      accessToken: 'dpop-bound-token',
    });
    profileId = p.id;
    const sealed = new TokenVault('k1', { k1: K1 }).seal(JSON.stringify(key), sealedAt(profileId, 'dpop_jwk_enc'));
    await ctx.db.query(
      'UPDATE connections.profiles SET dpop_jwk_enc = $2, pds_url = $3, oauth_issuer = $4 WHERE id = $1',
      [profileId, sealed, 'https://pds.example', 'https://auth.example'],
    );
    expect(await credentials(profileId)).toMatchObject({ serviceUrl: 'https://pds.example', dpopJwk: key });
  } finally {
    await first.lifecycle.stop();
  }

  const second = await boot({ TOKEN_KEY_ID: 'k2', TOKEN_ENCRYPTION_KEY: K2, TOKEN_PREVIOUS_KEYS: `k1:${K1}` });
  try {
    const spy = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      await rotateCommand.run({ 'key-id': 'k2' }, { bus: async () => ctx.bus, env: {} });
    } finally {
      spy.mockRestore();
    }
  } finally {
    await second.lifecycle.stop();
  }
  const row = (await ctx.db.query('SELECT dpop_jwk_enc FROM connections.profiles WHERE id = $1', [profileId]))
    .rows[0] as {
    dpop_jwk_enc: string;
  };
  expect(row.dpop_jwk_enc.startsWith('v2:k2:')).toBe(true);

  const third = await boot({ TOKEN_KEY_ID: 'k2', TOKEN_ENCRYPTION_KEY: K2 });
  try {
    expect(await credentials(profileId)).toMatchObject({ accessToken: 'dpop-bound-token', dpopJwk: key });
  } finally {
    await third.lifecycle.stop();
  }
});
