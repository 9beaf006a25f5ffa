import type { Database } from '@postbus/kit';
import { AppError } from '@postbus/contracts';
import { SEALED_PREFIX, type Logger } from '@postbus/kit';
import type { ConnectionRequestRepository } from '../connect/connection-request.repository';
import type { ProfileRepository } from '../profiles/profile.repository';
import { sealedAt, type SealedColumn, type TokenVault } from './token-vault';

const BATCH = 200;

type VaultPorts = {
  db: Database;
  profiles: ProfileRepository;
  requests: ConnectionRequestRepository;
  vault: TokenVault;
};

/**
 * Re-seals every stored token (profiles' tokens, pending requests' PKCE verifiers and grants) that
 * was sealed with a previous key, or in the unbound form, under the current TOKEN_KEY_ID, in small
 * transactions. Safe to run again and from several replicas; once it answers, the previous keys
 * can be removed.
 */
export async function rotateTokenKey(
  ports: VaultPorts,
): Promise<{ keyId: string; rotated: number; alreadyCurrent: number }> {
  const { vault } = ports;
  const alreadyCurrent = await ports.profiles.countSealedWith(vault.currentPrefix);
  const { resealed } = await resealAll(ports, vault.currentPrefix, (err) => {
    throw new AppError(
      'internal_error',
      `A token could not be opened (${err.message}); add its key to TOKEN_PREVIOUS_KEYS and run the rotation again.`,
    );
  });
  return { keyId: vault.currentKeyId, rotated: resealed, alreadyCurrent };
}

/**
 * At boot, before anything reads a token: values still in the unbound form of earlier versions are
 * re-sealed bound to their row and column. One that cannot be opened (its key is no longer
 * configured) is left as it is and counted; the rotation names it.
 */
export async function upgradeUnboundTokens(ports: VaultPorts, logger: Logger): Promise<void> {
  const { resealed, unopened } = await resealAll(ports, SEALED_PREFIX, () => undefined);
  if (resealed) logger.info('tokens of the unbound form re-sealed to their row and column', { resealed });
  if (unopened)
    logger.warn(
      'tokens that no configured key opens were left as they were; add their key to TOKEN_PREVIOUS_KEYS and run pnpm postbus rotate-token-key',
      { unopened },
    );
}

/** Re-seals, under the current key, every value that does not start with `prefix`. */
async function resealAll(
  ports: VaultPorts,
  prefix: string,
  unopenable: (err: Error) => void,
): Promise<{ resealed: number; unopened: number }> {
  const { vault } = ports;
  let resealed = 0;
  let unopened = 0;
  const reseal = (sealed: string | null, rowId: string, column: SealedColumn) => {
    if (sealed === null || sealed.startsWith(prefix)) return sealed;
    try {
      const value = vault.upgrade(sealed, sealedAt(rowId, column));
      resealed++;
      return value;
    } catch (err) {
      unopenable(err as Error);
      unopened++;
      return sealed;
    }
  };

  for (let afterId = ''; ;) {
    const rows = await ports.db.transaction(async (m) => {
      const locked = await ports.profiles.lockSealedOtherwise(m, prefix, afterId, BATCH);
      for (const r of locked) {
        await ports.profiles.saveSealed(
          m,
          r.id,
          reseal(r.access_token_enc, r.id, 'access_token_enc'),
          reseal(r.refresh_token_enc, r.id, 'refresh_token_enc'),
          reseal(r.dpop_jwk_enc ?? null, r.id, 'dpop_jwk_enc'),
        );
      }
      return locked;
    });
    if (!rows.length) break;
    afterId = rows[rows.length - 1].id;
  }
  for (let afterId = ''; ;) {
    const rows = await ports.db.transaction(async (m) => {
      const locked = await ports.requests.lockSealedOtherwise(m, prefix, afterId, BATCH);
      for (const r of locked) {
        await ports.requests.saveSealed(
          m,
          r.id,
          reseal(r.code_verifier_enc, r.id, 'code_verifier_enc'),
          reseal(r.grant_enc, r.id, 'grant_enc'),
        );
      }
      return locked;
    });
    if (!rows.length) break;
    afterId = rows[rows.length - 1].id;
  }
  return { resealed, unopened };
}
