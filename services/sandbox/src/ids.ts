import { randomBytes } from 'node:crypto';

/**
 * Opaque identifiers shaped like the platforms' own: Graph ids are long decimal strings,
 * Threads shortcodes are 11 url-safe characters. Ids keep growing across resets.
 */
export class IdGenerator {
  private next = 17_841_400_000_000_000n + BigInt(randomBytes(3).readUIntBE(0, 3)) * 1_000_000n;

  numeric(): string {
    this.next += 1n + BigInt(randomBytes(1)[0] % 7);
    return this.next.toString();
  }

  shortcode(): string {
    return randomBytes(9).toString('base64url').slice(0, 11);
  }

  token(prefix: string): string {
    return `${prefix}${randomBytes(30).toString('base64url')}`;
  }
}
