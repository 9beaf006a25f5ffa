import type { AccountRepository } from '../accounts/account.repository';
import { hashPassword, verifyPassword } from '../accounts/password';
import type { SessionRepository } from './session.repository';

export interface SignInPorts {
  accounts: AccountRepository;
  sessions: SessionRepository;
}

export type SignInResult = { ok: true; token: string; expiresAt: Date } | { ok: false; message: string };

let decoy: Promise<string> | undefined;

/** Checks email and password and opens a session; an unknown email costs the same scrypt as a wrong password. */
export async function signIn(ports: SignInPorts, email: string, password: string): Promise<SignInResult> {
  const user = await ports.accounts.findUserByEmail(email.trim());
  const stored = user?.password_hash ?? (await (decoy ??= hashPassword('not a password of anyone')));
  const matches = await verifyPassword(password, stored);
  if (!user || !user.password_hash || !matches) return { ok: false, message: 'The email or the password is not right.' };
  const account = await ports.accounts.find(user.account_id);
  if (user.disabled || !account || account.disabled) return { ok: false, message: 'This account is disabled. Contact support to enable it again.' };
  const session = await ports.sessions.create(user.id, user.account_id);
  return { ok: true, ...session };
}
