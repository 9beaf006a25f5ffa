import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { openDataSource } from '@postbus/kit';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import { AccountRepository } from '../src/accounts/account.repository';
import { OWASP_SCRYPT, PasswordHasher } from '../src/accounts/password';
import { readConfig } from '../src/config';
import { migrations } from '../src/migrations';
import { SessionRepository } from '../src/sessions/session.repository';
import { SignInBackoff } from '../src/sessions/sign-in-backoff.repository';
import { signIn, type SignInPorts } from '../src/sessions/sign-in.use-case';

const PASSWORD = 'correct horse battery staple';
const OLD_COST = { N: 2 ** 14, r: 8, p: 1 };

describe('password hashes', () => {
  const hasher = new PasswordHasher();

  test("when a password is hashed, then it uses OWASP's scrypt cost (N=2^17, r=8, p=1), stored with the hash, and verifies only the same password", async () => {
    const stored = await hasher.hash(PASSWORD);

    expect(OWASP_SCRYPT).toEqual({ N: 131072, r: 8, p: 1 });
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(hasher.isCurrent(stored)).toBe(true);
    expect(await hasher.verify(PASSWORD, stored)).toBe(true);
    expect(await hasher.verify(`${PASSWORD}!`, stored)).toBe(false);
  });

  test('when a hash was made at an older cost, then it still verifies and is known as not current', async () => {
    const old = await new PasswordHasher(OLD_COST).hash(PASSWORD);

    expect(old.startsWith('scrypt$16384$8$1$')).toBe(true);
    expect(await hasher.verify(PASSWORD, old)).toBe(true);
    expect(hasher.isCurrent(old)).toBe(false);
  });

  test('when a password is being hashed, then the event loop keeps turning (scrypt runs on the thread pool)', async () => {
    let hashed = false;
    const hashing = hasher.hash(PASSWORD).then(() => (hashed = true));
    await new Promise((resolve) => setImmediate(resolve));

    expect(hashed).toBe(false);
    await hashing;
  });

  test('when more hashes are asked for than may run at once, then the others wait for a turn and all complete', async () => {
    const stored = await new PasswordHasher(OLD_COST).hash(PASSWORD);
    const limited = new PasswordHasher(OLD_COST, 1);
    const hashing = [limited.hash('a'), limited.hash('b'), limited.verify(PASSWORD, stored)];

    expect(limited.load).toEqual({ running: 1, waiting: 2 });
    const [a, b, verified] = await Promise.all(hashing);
    expect(await limited.verify('a', a as string)).toBe(true);
    expect(await limited.verify('b', b as string)).toBe(true);
    expect(verified).toBe(true);
    expect(limited.load).toEqual({ running: 0, waiting: 0 });
  });

  test('when PASSWORD_SCRYPT_N is below the OWASP figure in production or not a power of two, then the configuration is refused', () => {
    expect(() =>
      readConfig({
        POSTBUS_ENV: 'production',
        AUTH_JWT_SECRET: randomBytes(32).toString('base64'),
        PASSWORD_SCRYPT_N: '16384',
      }),
    ).toThrow('PASSWORD_SCRYPT_N must be at least 131072 in production');
    expect(() => readConfig({ PASSWORD_SCRYPT_N: '100000' })).toThrow(
      /PASSWORD_SCRYPT_N="100000": expected a power of two/,
    );
    expect(readConfig({}).PASSWORD_SCRYPT_N).toBe(131072);
    expect(readConfig({ PASSWORD_SCRYPT_N: '16384' }).PASSWORD_SCRYPT_N).toBe(16384);
  });
});

describe('signing in with a hash of an older cost', () => {
  let env: TestEnv;
  let ds: DataSource;

  beforeAll(async () => {
    env = await createTestEnv('auth_password_rehash');
    ds = await openDataSource({ url: env.databaseUrl, schema: 'auth', migrations });
  });
  afterAll(async () => {
    await ds?.destroy();
    await env?.drop();
  });

  const passwordHashOf = async (userId: string): Promise<string> =>
    (await ds.query('SELECT password_hash FROM users WHERE id = $1', [userId]))[0].password_hash;

  test('when the right password signs in, then the hash is made again at the current cost, transparently; a wrong one changes nothing', async () => {
    const email = `old-${randomBytes(4).toString('hex')}@example.com`;
    const { userId } = await new AccountRepository(ds, 14, new PasswordHasher(OLD_COST)).create({
      email,
      password: PASSWORD,
    });
    const ports: SignInPorts = {
      accounts: new AccountRepository(ds, 14),
      sessions: new SessionRepository(ds, 3_600_000),
      backoff: new SignInBackoff(ds, { freeFailures: 5, firstLockMs: 60_000, maxLockMs: 300_000 }),
      passwords: new PasswordHasher(),
    };
    const old = await passwordHashOf(userId);

    expect((await signIn(ports, email, 'not the password')).ok).toBe(false);
    expect(await passwordHashOf(userId)).toBe(old);

    expect((await signIn(ports, email, PASSWORD)).ok).toBe(true);
    const upgraded = await passwordHashOf(userId);
    expect(upgraded.startsWith('scrypt$131072$8$1$')).toBe(true);

    expect((await signIn(ports, email, PASSWORD)).ok).toBe(true);
    expect(await passwordHashOf(userId)).toBe(upgraded);
  });
});
