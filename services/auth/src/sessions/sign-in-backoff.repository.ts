import { createHash } from 'node:crypto';

/** The one thing the backoff needs of PostgreSQL (a DataSource fits). */
export interface SqlPort {
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface BackoffPolicy {
  /** Failures in a row before the email has to wait (0 turns the backoff off). */
  freeFailures: number;
  /** The first wait; each further failure doubles it… */
  firstLockMs: number;
  /** …up to this. */
  maxLockMs: number;
}

export type AttemptVerdict = { allowed: true } | { allowed: false; retryAfterMs: number };

/** Failures older than this are forgotten: a mistyped password today does not count next week. */
const FORGET_AFTER = "interval '1 day'";

const emailHash = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest();

/**
 * Per-email backoff of sign-ins, shared by every auth replica. An attempt is counted as a failure
 * before the password is checked, in one UPSERT that refuses it while the email is locked — so a
 * burst of parallel guesses cannot slip past the count — and a right password clears the count.
 * From the `freeFailures`-th failure in a row the email is locked for `firstLockMs`, doubled at each
 * further failure up to `maxLockMs`. A refused attempt writes nothing and checks no password.
 */
export class SignInBackoff {
  constructor(
    private readonly db: SqlPort,
    readonly policy: BackoffPolicy,
  ) {}

  async attempt(email: string): Promise<AttemptVerdict> {
    if (this.policy.freeFailures <= 0) return { allowed: true };
    const failures = `CASE WHEN f.last_attempt_at < now() - ${FORGET_AFTER} THEN 1 ELSE f.failures + 1 END`;
    const lockAfter = (n: string) =>
      `CASE WHEN ${n} >= $2 THEN now() + least($4::float8, $3::float8 * power(2, least(${n} - $2, 40))) * interval '1 millisecond' END`;
    const counted = await this.db.query<{ failures: number }>(
      `INSERT INTO sign_in_failures AS f (email_hash, failures, locked_until, last_attempt_at) VALUES ($1, 1, ${lockAfter('1')}, now())
       ON CONFLICT (email_hash) DO UPDATE SET failures = ${failures}, locked_until = ${lockAfter(failures)}, last_attempt_at = now()
       WHERE f.locked_until IS NULL OR f.locked_until <= now()
       RETURNING failures`,
      [emailHash(email), this.policy.freeFailures, this.policy.firstLockMs, this.policy.maxLockMs],
    );
    if (counted.length) return { allowed: true };
    const [lock] = await this.db.query<{ wait_ms: number } | undefined>(
      `SELECT greatest(0, ceil(extract(epoch FROM (locked_until - now())) * 1000))::int AS wait_ms FROM sign_in_failures WHERE email_hash = $1`,
      [emailHash(email)],
    );
    return { allowed: false, retryAfterMs: Math.max(1000, Number(lock?.wait_ms ?? 0)) };
  }

  /** The right password: the email starts again with its free failures (and long-idle counts are dropped). */
  async succeeded(email: string): Promise<void> {
    if (this.policy.freeFailures <= 0) return;
    await this.db.query(
      `DELETE FROM sign_in_failures WHERE email_hash = $1 OR last_attempt_at < now() - ${FORGET_AFTER}`,
      [emailHash(email)],
    );
  }
}
