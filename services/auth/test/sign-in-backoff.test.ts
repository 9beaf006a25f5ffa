import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { openDataSource } from '@postbus/kit';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import type { AccountRepository } from '../src/accounts/account.repository';
import { hashPassword } from '../src/accounts/password';
import { migrations } from '../src/migrations';
import type { SessionRepository } from '../src/sessions/session.repository';
import { SignInBackoff, type BackoffPolicy } from '../src/sessions/sign-in-backoff.repository';
import { signIn, type SignInPorts } from '../src/sessions/sign-in.use-case';

const PASSWORD = 'correct horse battery';
const POLICY: BackoffPolicy = { freeFailures: 3, firstLockMs: 60_000, maxLockMs: 300_000 };

let env: TestEnv;
let ds: DataSource;
let storedHash: string;

beforeAll(async () => {
  env = await createTestEnv('auth_sign_in_backoff');
  ds = await openDataSource({ url: env.databaseUrl, schema: 'auth', migrations });
  storedHash = await hashPassword(PASSWORD);
});
afterAll(async () => {
  await ds?.destroy();
  await env?.drop();
});

const email = () => `person-${randomBytes(4).toString('hex')}@example.com`;

/** signIn over one known user, the real backoff in PostgreSQL, and a password check that is counted. */
function portsFor(address: string, policy = POLICY) {
  const checked: string[] = [];
  const user = { id: 'usr_1', account_id: 'acc_1', email: address, password_hash: storedHash, disabled: false };
  const ports: SignInPorts = {
    accounts: {
      findUserByEmail: async (e: string) => (e.toLowerCase() === address ? user : undefined),
      find: async () => ({ id: 'acc_1', disabled: false }),
    } as unknown as AccountRepository,
    sessions: { create: async () => ({ token: 'session', expiresAt: new Date() }) } as unknown as SessionRepository,
    backoff: new SignInBackoff(ds, policy),
    checkPassword: async (password, stored) => {
      checked.push(password);
      return stored === storedHash && password === PASSWORD;
    },
  };
  return { ports, checked };
}

/** Ends the email's current wait, as time passing would. */
async function lockEnds(): Promise<void> {
  await ds.query(
    `UPDATE sign_in_failures SET locked_until = now() - interval '1 millisecond' WHERE locked_until > now()`,
  );
}

test('when an email fails its free sign-ins, then the next tries are refused with a wait and no password is checked, not even the right one', async () => {
  const address = email();
  const { ports, checked } = portsFor(address);
  for (let i = 0; i < POLICY.freeFailures; i++)
    expect(await signIn(ports, address, `guess ${i}`)).toEqual({
      ok: false,
      message: 'The email or the password is not right.',
    });
  expect(checked).toHaveLength(POLICY.freeFailures);

  const wrong = await signIn(ports, ` ${address.toUpperCase()} `, 'another guess');
  const right = await signIn(ports, address, PASSWORD);
  for (const refused of [wrong, right]) {
    expect(refused).toEqual({
      ok: false,
      retryAfterSeconds: expect.any(Number),
      message: expect.stringMatching(
        /^Too many failed sign-ins for this email\. Try again in \d+ (seconds|minutes)\.$/,
      ),
    });
    expect(refused.ok === false && refused.retryAfterSeconds).toBeGreaterThan(50);
    expect(refused.ok === false && refused.retryAfterSeconds).toBeLessThanOrEqual(60);
  }
  expect(checked).toHaveLength(POLICY.freeFailures);
});

test('when failures go on after each wait, then each wait doubles up to the longest, and a right password starts the count again', async () => {
  const address = email();
  const { ports } = portsFor(address);
  for (let i = 0; i < POLICY.freeFailures; i++) await signIn(ports, address, 'guess');
  const waits: number[] = [];
  for (let i = 0; i < 4; i++) {
    const refused = await signIn(ports, address, 'guess');
    waits.push(refused.ok === false ? (refused.retryAfterSeconds ?? 0) : -1);
    await lockEnds();
    await signIn(ports, address, 'guess');
  }
  // Whole seconds of 60, 120, 240 and then at most 300 s, each read a moment after it began.
  waits.forEach((w, i) => {
    expect(w).toBeGreaterThan([60, 120, 240, 300][i] - 10);
    expect(w).toBeLessThanOrEqual([60, 120, 240, 300][i]);
  });

  await lockEnds();
  expect(await signIn(ports, address, PASSWORD)).toMatchObject({ ok: true });
  const again = [];
  for (let i = 0; i < POLICY.freeFailures; i++) again.push((await signIn(ports, address, 'guess')).ok === false);
  expect(again).toEqual(Array(POLICY.freeFailures).fill(true));
  expect(await signIn(ports, address, 'guess')).toMatchObject({ ok: false, retryAfterSeconds: expect.any(Number) });
});

test('when many guesses for one email arrive at once, then only the free failures reach the password check', async () => {
  const address = email();
  const { ports, checked } = portsFor(address);
  const results = await Promise.all(Array.from({ length: 12 }, (_, i) => signIn(ports, address, `guess ${i}`)));
  expect(checked).toHaveLength(POLICY.freeFailures);
  expect(results.filter((r) => r.ok === false && r.retryAfterSeconds !== undefined)).toHaveLength(
    12 - POLICY.freeFailures,
  );
});

test('when an email that has no user is guessed at, then it is held back the same way, so a lock tells nothing about who has an account', async () => {
  const { ports, checked } = portsFor(email());
  const stranger = email();
  for (let i = 0; i < POLICY.freeFailures; i++) await signIn(ports, stranger, 'guess');
  expect(await signIn(ports, stranger, 'guess')).toMatchObject({ ok: false, retryAfterSeconds: expect.any(Number) });
  expect(checked).toHaveLength(POLICY.freeFailures);
});

test('when the backoff is off, then every try is checked and nothing is kept', async () => {
  const address = email();
  const { ports, checked } = portsFor(address, { ...POLICY, freeFailures: 0 });
  const before = await ds.query('SELECT count(*)::int AS n FROM sign_in_failures');
  for (let i = 0; i < 6; i++)
    expect(await signIn(ports, address, 'guess')).toMatchObject({
      ok: false,
      message: 'The email or the password is not right.',
    });
  expect(checked).toHaveLength(6);
  expect(await ds.query('SELECT count(*)::int AS n FROM sign_in_failures')).toEqual(before);
});
