import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { promisify } from 'node:util';

/** On libuv's thread pool, never the event loop. */
const scrypt = promisify(scryptCb) as (
  password: string,
  salt: Buffer,
  keylen: number,
  opts: ScryptOptions,
) => Promise<Buffer>;

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** OWASP Password Storage Cheat Sheet: scrypt with N=2^17, r=8, p=1 (128 MiB) at least. */
export const OWASP_SCRYPT: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };

/**
 * The memory one scrypt needs, as OpenSSL counts it (128·r·(N+p+2) bytes): Node's default
 * ceiling of 32 MiB would refuse the OWASP cost.
 */
function maxmemOf(c: ScryptCost): number {
  return 128 * c.r * (c.N + c.p + 2);
}

/**
 * Passwords as `scrypt$N$r$p$salt$hash`: each hash keeps the cost it was made with, so a cost
 * raised later still verifies the old hashes, and `isCurrent` tells which to hash again.
 * At most `maxConcurrent` run at once (2 by default: 256 MiB at the OWASP cost), the others wait,
 * so a burst of sign-ins cannot take the process past its memory limit.
 */
export class PasswordHasher {
  private decoy?: Promise<string>;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly cost: ScryptCost = OWASP_SCRYPT,
    private readonly maxConcurrent = 2,
  ) {}

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const { N, r, p } = this.cost;
    const hash = await this.scrypt(password, salt, 32, this.cost);
    return ['scrypt', N, r, p, salt.toString('base64'), hash.toString('base64')].join('$');
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const [kind, N, r, p, salt, hash] = stored.split('$');
    if (kind !== 'scrypt') return false;
    const expected = Buffer.from(hash, 'base64');
    const actual = await this.scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
      N: Number(N),
      r: Number(r),
      p: Number(p),
    });
    return timingSafeEqual(actual, expected);
  }

  /** How many hashes run now, and how many wait for their turn. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** True when the hash was made with this hasher's cost. */
  isCurrent(stored: string): boolean {
    const { N, r, p } = this.cost;
    return stored.startsWith(`scrypt$${N}$${r}$${p}$`);
  }

  /** A hash of no one's password, at the current cost: an unknown email costs as much as a known one. */
  decoyHash(): Promise<string> {
    return (this.decoy ??= this.hash('not a password of anyone'));
  }

  private async scrypt(password: string, salt: Buffer, keylen: number, cost: ScryptCost): Promise<Buffer> {
    if (this.running < this.maxConcurrent) this.running++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve)); // the finishing hash hands its turn over
    try {
      return await scrypt(password, salt, keylen, { ...cost, maxmem: maxmemOf(cost) });
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/** A hash at the OWASP cost. */
export function hashPassword(password: string): Promise<string> {
  return new PasswordHasher().hash(password);
}
