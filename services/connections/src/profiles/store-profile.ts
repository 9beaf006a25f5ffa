import type { Database } from '@postbus/kit';
import { newId } from '@postbus/contracts';
import { sealedAt, type TokenVault } from '../vault/token-vault';
import type { NewProfile, ProfileRepository, ProfileRow } from './profile.repository';

export type ProfileToStore = Omit<NewProfile, 'id' | 'accessTokenEnc' | 'refreshTokenEnc' | 'dpopJwkEnc'> & {
  accessToken: string;
  /** Null keeps a stored refresh token: a platform that did not send a new one has not replaced it. */
  refreshToken: string | null;
  /** Bluesky through OAuth: the session's DPoP private JWK (JSON), sealed like the tokens. */
  dpopJwk?: string | null;
};

/**
 * Upserts a profile with its tokens sealed to its row. The row's id is known only once it is
 * written: a platform account connected again keeps the id it had, so tokens first sealed to a
 * new id are sealed again to the kept one, in the same transaction.
 */
export async function storeProfile(
  m: Database,
  ports: { profiles: ProfileRepository; vault: TokenVault },
  p: ProfileToStore,
): Promise<ProfileRow & { inserted: boolean }> {
  const { accessToken, refreshToken, dpopJwk, ...profile } = p;
  const sealedFor = (id: string) => ({
    accessTokenEnc: ports.vault.seal(accessToken, sealedAt(id, 'access_token_enc')),
    refreshTokenEnc: ports.vault.sealOrNull(refreshToken, sealedAt(id, 'refresh_token_enc')),
    dpopJwkEnc: ports.vault.sealOrNull(dpopJwk ?? null, sealedAt(id, 'dpop_jwk_enc')),
  });
  const proposed = newId('prf');
  const row = await ports.profiles.upsert({ ...profile, id: proposed, ...sealedFor(proposed) }, m);
  if (row.id === proposed) return row;
  const resealed = sealedFor(row.id);
  // A refresh token the platform did not replace was kept as stored, already sealed to this row.
  const refreshTokenEnc = resealed.refreshTokenEnc ?? row.refresh_token_enc;
  await ports.profiles.saveSealed(m, row.id, resealed.accessTokenEnc, refreshTokenEnc, resealed.dpopJwkEnc);
  return {
    ...row,
    access_token_enc: resealed.accessTokenEnc,
    refresh_token_enc: refreshTokenEnc,
    dpop_jwk_enc: resealed.dpopJwkEnc,
  };
}
