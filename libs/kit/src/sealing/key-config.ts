import type { VarSpec } from '../config';
import { KEY_ID_PATTERN, KeyRing } from './key-ring';

/** The three variables of one key ring: the current key, its id, and the keys still being rotated away from. */
export interface SealingKeyNames {
  key: string;
  keyId: string;
  previous: string;
}

export interface SealingKeys {
  key: string;
  keyId: string;
  previous: Record<string, string>;
}

/** A key id: it is written into every sealed value. */
export function keyIdVar(doc: string, def: string): VarSpec<string> {
  return {
    doc,
    default: def,
    parse(raw) {
      if (!KEY_ID_PATTERN.test(raw)) throw new Error('expected 1 to 64 letters, digits, _ . or -');
      return raw;
    },
  };
}

/** `id:base64,id:base64` → { id: base64 }; a malformed value is refused without being echoed. */
export function previousKeysVar(doc: string): VarSpec<Record<string, string>> {
  return {
    doc,
    default: {},
    secret: true,
    parse(raw) {
      const keys: Record<string, string> = {};
      for (const entry of raw
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean)) {
        const at = entry.indexOf(':');
        if (at <= 0) throw new Error('expected id:base64 entries separated by commas');
        const id = entry.slice(0, at);
        const key = entry.slice(at + 1);
        if (!KEY_ID_PATTERN.test(id))
          throw new Error(`key id ${JSON.stringify(id)} is not 1 to 64 letters, digits, _ . or -`);
        if (Buffer.from(key, 'base64').length !== 32) throw new Error(`key ${id} is not 32 bytes of base64`);
        keys[id] = key;
      }
      return keys;
    },
  };
}

/**
 * What is wrong with a key ring's configuration: a current key that is not 32 bytes, a previous key
 * listed under the current id, or (in production) the development key everyone can read in the code.
 */
export function sealingKeyProblems(
  names: SealingKeyNames,
  keys: SealingKeys,
  opts: { production: boolean; developmentKey: string },
): string[] {
  const problems: string[] = [];
  if (Buffer.from(keys.key, 'base64').length !== 32) problems.push(`${names.key} must be 32 bytes, base64-encoded`);
  if (keys.previous[keys.keyId]) problems.push(`${names.previous} must not repeat ${names.keyId}`);
  if (opts.production && keys.key === opts.developmentKey) problems.push(`${names.key} must be set in production`);
  return problems;
}

/** The ring of the current key and every previous key still being rotated away from. */
export function keyRingOf(keys: SealingKeys): KeyRing {
  return new KeyRing(keys.keyId, { ...keys.previous, [keys.keyId]: keys.key });
}
