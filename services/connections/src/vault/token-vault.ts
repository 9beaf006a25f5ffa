import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Platform tokens encrypted with AES-256-GCM. The stored form is `keyId:iv:tag:ciphertext`
 * (base64 parts), so a rotation can tell which key sealed each token. New tokens are sealed with
 * the current key; tokens sealed with a previous key are still opened until they are re-sealed.
 */
export class TokenVault {
  private readonly keys: Map<string, Buffer>;

  constructor(
    readonly currentKeyId: string,
    keys: Record<string, string>,
  ) {
    this.keys = new Map(Object.entries(keys).map(([id, k]) => [id, Buffer.from(k, 'base64')]));
    if (!this.keys.has(currentKeyId)) throw new Error(`no key ${currentKeyId}`);
    for (const [id, key] of this.keys) if (key.length !== 32) throw new Error(`key ${id} is not 32 bytes`);
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentKeyId)!, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [this.currentKeyId, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
  }

  open(sealed: string): string {
    const [keyId, iv, tag, body] = sealed.split(':');
    const key = this.keys.get(keyId);
    if (!key) throw new Error(`token sealed with unknown key ${keyId}`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  }

  sealOrNull(plain: string | null): string | null {
    return plain === null ? null : this.seal(plain);
  }

  openOrNull(sealed: string | null): string | null {
    return sealed === null ? null : this.open(sealed);
  }

  /** True when the token was sealed with the current key. */
  isCurrent(sealed: string): boolean {
    return sealed.startsWith(`${this.currentKeyId}:`);
  }

  /** The same token sealed with the current key. */
  reseal(sealed: string): string {
    return this.seal(this.open(sealed));
  }
}

/** The vault of the configured key and every previous key still being rotated away from. */
export function vaultFromConfig(config: { TOKEN_KEY_ID: string; TOKEN_ENCRYPTION_KEY: string; TOKEN_PREVIOUS_KEYS: Record<string, string> }): TokenVault {
  return new TokenVault(config.TOKEN_KEY_ID, { ...config.TOKEN_PREVIOUS_KEYS, [config.TOKEN_KEY_ID]: config.TOKEN_ENCRYPTION_KEY });
}
