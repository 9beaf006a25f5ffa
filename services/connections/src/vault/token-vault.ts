import { boundTo, KeyRing, SEALED_PREFIX } from '@postbus/kit';

/** The columns that hold sealed secrets: each value is bound to its row id and its column. */
export type SealedColumn =
  'access_token_enc' | 'refresh_token_enc' | 'code_verifier_enc' | 'grant_enc' | 'client_secret_enc' | 'dpop_jwk_enc';

/** Where a sealed value is stored, as its additional authenticated data. */
export const sealedAt = (rowId: string, column: SealedColumn): string => boundTo(rowId, column);

/**
 * Platform tokens (and pending sign-ins' PKCE verifiers and grants) sealed with AES-256-GCM, each
 * bound to its row and column (see KeyRing). New values are sealed with the current key; values
 * sealed with a previous key still open until the rotation re-seals them.
 *
 * The first stored form, `keyId:iv:tag:ciphertext`, was bound to nothing: readers refuse it, and
 * `upgrade` (run at boot and by the rotation) re-seals it in place.
 */
export class TokenVault extends KeyRing {
  /** True for a value of the first, unbound form. */
  isUnbound(sealed: string): boolean {
    return !sealed.startsWith(SEALED_PREFIX);
  }

  /** The value sealed with the current key and bound to its place, whatever form and key it had. */
  upgrade(sealed: string, at: string): string {
    if (!this.isUnbound(sealed)) return this.reseal(sealed, at);
    const [keyId, iv, tag, body] = sealed.split(':');
    return this.seal(this.decrypt(keyId, iv, tag, body, undefined), at);
  }

  override open(sealed: string, at: string): string {
    if (this.isUnbound(sealed))
      throw new Error(
        'token stored in the unbound form of earlier versions; run pnpm postbus rotate-token-key to re-seal it',
      );
    return super.open(sealed, at);
  }
}

/** The vault of the configured key and every previous key still being rotated away from. */
export function vaultFromConfig(config: {
  TOKEN_KEY_ID: string;
  TOKEN_ENCRYPTION_KEY: string;
  TOKEN_PREVIOUS_KEYS: Record<string, string>;
}): TokenVault {
  return new TokenVault(config.TOKEN_KEY_ID, {
    ...config.TOKEN_PREVIOUS_KEYS,
    [config.TOKEN_KEY_ID]: config.TOKEN_ENCRYPTION_KEY,
  });
}
