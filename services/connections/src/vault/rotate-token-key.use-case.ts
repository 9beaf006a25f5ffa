import type { DataSource } from 'typeorm';
import { AppError } from '@postbus/contracts';
import type { ConnectionRequestRepository } from '../connect/connection-request.repository';
import type { ProfileRepository } from '../profiles/profile.repository';
import type { TokenVault } from './token-vault';

const BATCH = 200;

/**
 * Re-seals every stored token (profiles' tokens, pending requests' PKCE verifiers and grants) that
 * was sealed with a previous key under the current TOKEN_KEY_ID, in small transactions. Safe to
 * run again and from several replicas; once it answers, the previous keys can be removed.
 */
export async function rotateTokenKey(ports: { ds: DataSource; profiles: ProfileRepository; requests: ConnectionRequestRepository; vault: TokenVault }): Promise<{ keyId: string; rotated: number; alreadyCurrent: number }> {
  const { vault } = ports;
  const keyId = vault.currentKeyId;
  const alreadyCurrent = await ports.profiles.countSealedWith(keyId);
  const reseal = (sealed: string | null) => {
    if (sealed === null || vault.isCurrent(sealed)) return { value: sealed, changed: 0 };
    try {
      return { value: vault.reseal(sealed), changed: 1 };
    } catch (err) {
      throw new AppError('internal_error', `A token could not be opened (${(err as Error).message}); add its key to TOKEN_PREVIOUS_KEYS and run the rotation again.`);
    }
  };

  let rotated = 0;
  for (;;) {
    const n = await ports.ds.transaction(async (m) => {
      const rows = await ports.profiles.lockSealedWithOtherKey(m, keyId, BATCH);
      for (const r of rows) {
        const access = reseal(r.access_token_enc);
        const refresh = reseal(r.refresh_token_enc);
        await ports.profiles.saveSealed(m, r.id, access.value, refresh.value);
        rotated += access.changed + refresh.changed;
      }
      return rows.length;
    });
    if (n < BATCH) break;
  }
  for (;;) {
    const n = await ports.ds.transaction(async (m) => {
      const rows = await ports.requests.lockSealedWithOtherKey(m, keyId, BATCH);
      for (const r of rows) {
        const verifier = reseal(r.code_verifier_enc);
        const grant = reseal(r.grant_enc);
        await ports.requests.saveSealed(m, r.id, verifier.value, grant.value);
        rotated += verifier.changed + grant.changed;
      }
      return rows.length;
    });
    if (n < BATCH) break;
  }
  return { keyId, rotated, alreadyCurrent };
}
