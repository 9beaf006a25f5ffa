import { randomBytes } from 'node:crypto';
import { ConfigError, KeyRing, boundTo, keyIdVar, loadConfig, previousKeysVar, sealingKeyProblems } from '../src';

const K1 = randomBytes(32).toString('base64');
const K2 = randomBytes(32).toString('base64');
const HERE = boundTo('row_1', 'secret');

describe('a key ring', () => {
  const ring = new KeyRing('k1', { k1: K1 });

  test('when a value is sealed, then it is stored as v2:keyId:iv:tag:ciphertext and opens where it was sealed, differently each time', () => {
    const a = ring.seal('secret-token', HERE);
    const b = ring.seal('secret-token', HERE);

    expect(a).toMatch(/^v2:k1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(a).not.toContain('secret-token');
    expect(a).not.toBe(b);
    expect(ring.open(a, HERE)).toBe('secret-token');
  });

  test('when a sealed value is opened for another row or another column, then it does not open', () => {
    const sealed = ring.seal('secret-token', HERE);

    expect(() => ring.open(sealed, boundTo('row_2', 'secret'))).toThrow();
    expect(() => ring.open(sealed, boundTo('row_1', 'previous_secret'))).toThrow();
  });

  test('when a sealed value was altered, then it does not open', () => {
    const [v, id, iv, tag, body] = ring.seal('secret-token', HERE).split(':');
    const flipped = Buffer.from(body, 'base64');
    flipped[0] ^= 1;

    expect(() => ring.open([v, id, iv, tag, flipped.toString('base64')].join(':'), HERE)).toThrow();
  });

  test('when the authentication tag is cut short, then the value does not open', () => {
    const [v, id, iv, tag, body] = ring.seal('secret-token', HERE).split(':');
    // GCM checks a short tag against the start of the real one: Node would accept 4 to 15 bytes.
    const short = Buffer.from(tag, 'base64').subarray(0, 12).toString('base64');

    expect(() => ring.open([v, id, iv, short, body].join(':'), HERE)).toThrow('authentication tag is 12 bytes, not 16');
  });

  test('when a value was sealed with a key the ring does not hold, then opening it says which key', () => {
    const other = new KeyRing('k2', { k2: K2 });

    expect(() => other.open(ring.seal('x', HERE), HERE)).toThrow('unknown key k1');
  });

  test('when the key changes, then values of the previous key still open and re-seal under the current one', () => {
    const rotated = new KeyRing('k2', { k1: K1, k2: K2 });
    const old = ring.seal('secret-token', HERE);

    expect(rotated.isCurrent(old)).toBe(false);
    const resealed = rotated.reseal(old, HERE);
    expect(resealed.startsWith('v2:k2:')).toBe(true);
    expect(rotated.isCurrent(resealed)).toBe(true);
    expect(rotated.open(resealed, HERE)).toBe('secret-token');
  });
});

describe('key ring configuration', () => {
  const vars = {
    KEY: { doc: 'key', default: K1, parse: (raw: string) => raw },
    KEY_ID: keyIdVar('id', 'dev'),
    PREVIOUS: previousKeysVar('previous'),
  };
  const names = { key: 'KEY', keyId: 'KEY_ID', previous: 'PREVIOUS' };

  test('when a key id or a previous key is malformed, then it is refused, and a refused key is never repeated in the error', () => {
    const short = Buffer.alloc(8, 9).toString('base64');
    expect(() => loadConfig(vars, { KEY_ID: 'a:b' })).toThrow(/KEY_ID="a:b": expected 1 to 64 letters/);
    expect(() => loadConfig(vars, { PREVIOUS: 'k0' })).toThrow(/PREVIOUS: expected id:base64/);
    let error: unknown;
    try {
      loadConfig(vars, { PREVIOUS: `k0:${short}` });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(String(error)).toMatch(/key k0 is not 32 bytes/);
    expect(String(error)).not.toContain(short);
  });

  test('when the key is short, repeated among the previous ones, or the development key in production, then each is named', () => {
    expect(
      sealingKeyProblems(
        names,
        { key: Buffer.alloc(16).toString('base64'), keyId: 'k1', previous: { k1: K2 } },
        { production: false, developmentKey: K1 },
      ),
    ).toEqual(['KEY must be 32 bytes, base64-encoded', 'PREVIOUS must not repeat KEY_ID']);
    expect(
      sealingKeyProblems(names, { key: K1, keyId: 'k1', previous: {} }, { production: true, developmentKey: K1 }),
    ).toEqual(['KEY must be set in production']);
    expect(
      sealingKeyProblems(names, { key: K1, keyId: 'k1', previous: {} }, { production: false, developmentKey: K1 }),
    ).toEqual([]);
  });
});
