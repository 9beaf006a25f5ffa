import { AppError, newId, SCOPES } from '@postbus/contracts';
import { generateApiKey } from './api-key';
import type { ApiKeyRepository } from './api-key.repository';

export interface IssueKeyInput {
  accountId: string;
  /** The owning user; the account's first user when absent (operator keys). */
  userId?: string;
  name: string;
  scopes: string[];
  profileIds?: 'all' | string[];
  expiresAt?: string;
}

export const KEY_NAME_MAX = 100;

/** Creates a key and returns it once; only its hash is kept. */
export async function issueApiKey(
  keys: Pick<ApiKeyRepository, 'findOwner' | 'insert'>,
  input: IssueKeyInput,
  now = new Date(),
): Promise<{ keyId: string; key: string }> {
  const name = input.name.trim();
  if (!name || name.length > KEY_NAME_MAX)
    throw new AppError('validation_error', `A key needs a name of 1 to ${KEY_NAME_MAX} characters.`);
  const unknown = input.scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length)
    throw new AppError('validation_error', `Unknown scope ${unknown.join(', ')}; use any of ${SCOPES.join(' ')}.`);
  if (!input.scopes.length) throw new AppError('validation_error', 'A key needs at least one scope.');
  const profileIds = input.profileIds ?? 'all';
  if (profileIds !== 'all' && !profileIds.length)
    throw new AppError('validation_error', "A key limited to profiles needs at least one profile id, or 'all'.");
  if (input.expiresAt !== undefined && !(Date.parse(input.expiresAt) > now.getTime()))
    throw new AppError('validation_error', 'expiresAt must be a time in the future.');

  const ownerId = await keys.findOwner(input.accountId, input.userId);
  if (!ownerId) throw new AppError('not_found', input.userId ? 'No such user in this account.' : 'No such account.');

  const { key, lookup, hash } = generateApiKey();
  const keyId = newId('key');
  await keys.insert({
    id: keyId,
    accountId: input.accountId,
    userId: ownerId,
    name,
    lookup,
    hash,
    scopes: [...new Set(input.scopes)],
    profileIds: profileIds === 'all' ? 'all' : [...new Set(profileIds)],
    expiresAt: input.expiresAt ?? null,
  });
  return { keyId, key };
}
