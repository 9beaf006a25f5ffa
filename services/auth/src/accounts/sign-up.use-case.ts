import { AppError } from '@postbus/contracts';
import type { SessionRepository } from '../sessions/session.repository';
import type { AccountRepository } from './account.repository';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 200;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface SignUpPorts {
  accounts: AccountRepository;
  sessions: SessionRepository;
}

/** A new account on the free trial with its first user, signed in at once. */
export async function signUp(
  ports: SignUpPorts,
  input: { email: string; password: string; name?: string },
): Promise<{ accountId: string; token: string; expiresAt: Date }> {
  const email = input.email.trim();
  if (!EMAIL.test(email) || email.length > 254) throw new AppError('validation_error', 'Enter a valid email address.');
  if (input.password.length < PASSWORD_MIN || input.password.length > PASSWORD_MAX)
    throw new AppError('validation_error', `Choose a password of ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`);
  const name = input.name?.trim() || undefined;
  const { accountId, userId } = await ports.accounts.create({ email, password: input.password, name });
  const session = await ports.sessions.create(userId, accountId);
  return { accountId, ...session };
}
