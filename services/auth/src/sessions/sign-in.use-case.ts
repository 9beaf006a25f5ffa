import type { AccountRepository } from '../accounts/account.repository';
import { PasswordHasher } from '../accounts/password';
import type { SessionRepository } from './session.repository';
import type { SignInBackoff } from './sign-in-backoff.repository';

export interface SignInPorts {
  accounts: AccountRepository;
  sessions: SessionRepository;
  backoff: SignInBackoff;
  /** scrypt at the configured cost (the OWASP one when absent). */
  passwords?: PasswordHasher;
  /** The password check (scrypt); the slow part a locked email never reaches. */
  checkPassword?: (password: string, stored: string) => Promise<boolean>;
}

const owaspHasher = new PasswordHasher();

export type SignInResult =
  | { ok: true; token: string; expiresAt: Date }
  | { ok: false; message: string; retryAfterSeconds?: undefined }
  | { ok: false; message: string; retryAfterSeconds: number };

function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

/**
 * Checks email and password and opens a session; an unknown email costs the same scrypt as a
 * wrong password. After too many failures in a row the email is refused for a while (see
 * SignInBackoff) without its password being checked, whichever email it is.
 */
export async function signIn(ports: SignInPorts, email: string, password: string): Promise<SignInResult> {
  const attempt = await ports.backoff.attempt(email);
  if (!attempt.allowed) {
    const retryAfterSeconds = Math.ceil(attempt.retryAfterMs / 1000);
    return {
      ok: false,
      retryAfterSeconds,
      message: `Too many failed sign-ins for this email. Try again in ${waitText(retryAfterSeconds)}.`,
    };
  }
  const passwords = ports.passwords ?? owaspHasher;
  const user = await ports.accounts.findUserByEmail(email.trim());
  const stored = user?.password_hash ?? (await passwords.decoyHash());
  const matches = await (ports.checkPassword ?? ((p: string, s: string) => passwords.verify(p, s)))(password, stored);
  if (!user || !user.password_hash || !matches)
    return { ok: false, message: 'The email or the password is not right.' };
  await ports.backoff.succeeded(email);
  // The one moment the password is known: a hash made at an older cost is made again at the current one.
  if (!passwords.isCurrent(user.password_hash))
    await ports.accounts.replacePasswordHash(user.id, user.password_hash, await passwords.hash(password));
  const account = await ports.accounts.find(user.account_id);
  if (user.disabled || !account || account.disabled)
    return { ok: false, message: 'This account is disabled. Contact support to enable it again.' };
  const session = await ports.sessions.create(user.id, user.account_id);
  return { ok: true, ...session };
}
