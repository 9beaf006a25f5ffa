import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
/** The full GCM tag: Node would otherwise accept a tag cut down to 4 bytes, a forgery made 2^96 times easier. */
const TAG_BYTES = 16;

/** What every value sealed by a key ring starts with: the format, `v2:keyId:iv:tag:ciphertext`. */
export const SEALED_PREFIX = 'v2:';

/** A key id goes into every sealed value, between colons. */
export const KEY_ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Secrets sealed at rest with AES-256-GCM, under the current key of a ring that also holds the
 * keys a rotation is moving away from. The stored form `v2:keyId:iv:tag:ciphertext` (base64 parts)
 * names the key that sealed it. Each value is bound, as additional authenticated data, to where it
 * is stored (`<row id>|<column>`): copied to another row or column, it does not open.
 */
export class KeyRing {
  private readonly keys: Map<string, Buffer>;

  constructor(
    readonly currentKeyId: string,
    keys: Record<string, string>,
  ) {
    this.keys = new Map(Object.entries(keys).map(([id, k]) => [id, Buffer.from(k, 'base64')]));
    if (!this.keys.has(currentKeyId)) throw new Error(`no key ${currentKeyId}`);
    for (const [id, key] of this.keys) {
      if (!KEY_ID_PATTERN.test(id)) throw new Error(`key id ${JSON.stringify(id)} is not letters, digits, _ . or -`);
      if (key.length !== 32) throw new Error(`key ${id} is not 32 bytes`);
    }
  }

  /** What every value sealed with the current key starts with (a rotation re-seals the others). */
  get currentPrefix(): string {
    return `${SEALED_PREFIX}${this.currentKeyId}:`;
  }

  seal(plain: string, boundTo: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.keys.get(this.currentKeyId)!, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(boundTo, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${this.currentPrefix}${[iv, cipher.getAuthTag(), body].map((b) => b.toString('base64')).join(':')}`;
  }

  /** Throws when the value was altered, sealed for another place, or sealed with a key the ring does not hold. */
  open(sealed: string, boundTo: string): string {
    if (!sealed.startsWith(SEALED_PREFIX)) throw new Error('not a sealed value');
    const [keyId, iv, tag, body] = sealed.slice(SEALED_PREFIX.length).split(':');
    return this.decrypt(keyId, iv, tag, body, boundTo);
  }

  sealOrNull(plain: string | null, boundTo: string): string | null {
    return plain === null ? null : this.seal(plain, boundTo);
  }

  openOrNull(sealed: string | null, boundTo: string): string | null {
    return sealed === null ? null : this.open(sealed, boundTo);
  }

  /** True when the value was sealed with the current key. */
  isCurrent(sealed: string): boolean {
    return sealed.startsWith(this.currentPrefix);
  }

  /** The same secret sealed with the current key. */
  reseal(sealed: string, boundTo: string): string {
    return this.seal(this.open(sealed, boundTo), boundTo);
  }

  /** AES-256-GCM decryption with a full-length tag; `boundTo` undefined binds no data. */
  protected decrypt(keyId: string, iv: string, tag: string, body: string, boundTo: string | undefined): string {
    const key = this.keys.get(keyId);
    if (!key) throw new Error(`sealed with unknown key ${keyId}`);
    const tagBytes = Buffer.from(tag ?? '', 'base64');
    if (tagBytes.length !== TAG_BYTES)
      throw new Error(`the authentication tag is ${tagBytes.length} bytes, not ${TAG_BYTES}`);
    const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv ?? '', 'base64'), { authTagLength: TAG_BYTES });
    if (boundTo !== undefined) decipher.setAAD(Buffer.from(boundTo, 'utf8'));
    decipher.setAuthTag(tagBytes);
    return Buffer.concat([decipher.update(Buffer.from(body ?? '', 'base64')), decipher.final()]).toString('utf8');
  }
}

/** `<row id>|<column>`: the place a sealed value belongs to. */
export function boundTo(rowId: string, column: string): string {
  return `${rowId}|${column}`;
}
