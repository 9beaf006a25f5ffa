import { AppError } from '@postbus/contracts';
import type { IssueKeyInput } from '../../keys/issue-key.use-case';

/** The create-key form as the user filled it, kept to show it again after an error. */
export interface KeyFormValues {
  name: string;
  scopes: string[];
  restriction: 'all' | 'list';
  profileIds: string[];
  expiresInDays: string;
}

export const EMPTY_KEY_FORM: KeyFormValues = {
  name: '',
  scopes: ['post:write', 'post:read', 'media:write', 'account:read'],
  restriction: 'all',
  profileIds: [],
  expiresInDays: '',
};

const list = (v: unknown): string[] =>
  (Array.isArray(v) ? v : v === undefined ? [] : [v]).filter((x): x is string => typeof x === 'string');

export function readKeyForm(body: Record<string, unknown>): KeyFormValues {
  const typed = list(body.otherProfileIds)
    .flatMap((s) => s.split(/[\s,]+/))
    .filter(Boolean);
  return {
    name: typeof body.name === 'string' ? body.name : '',
    scopes: list(body.scopes),
    restriction: body.restriction === 'list' ? 'list' : 'all',
    profileIds: [...new Set([...list(body.profileIds), ...typed])],
    expiresInDays: typeof body.expiresInDays === 'string' ? body.expiresInDays : '',
  };
}

/**
 * The key to issue from the form. A profile list must name profiles of this account
 * (`owned`, when it could be read; undefined leaves the check to the services that use the key).
 */
export function toIssueKeyInput(
  f: KeyFormValues,
  owner: { accountId: string; userId: string },
  owned: Set<string> | undefined,
  now = new Date(),
): IssueKeyInput {
  if (!f.scopes.length) throw new AppError('validation_error', 'Choose at least one scope.');
  let profileIds: IssueKeyInput['profileIds'] = 'all';
  if (f.restriction === 'list') {
    if (!f.profileIds.length)
      throw new AppError('validation_error', 'Choose at least one profile, or let the key use all connected accounts.');
    const foreign = owned ? f.profileIds.filter((id) => !owned.has(id)) : [];
    if (foreign.length)
      throw new AppError('validation_error', `Not a connected profile of this account: ${foreign.join(', ')}.`);
    profileIds = f.profileIds;
  }
  let expiresAt: string | undefined;
  if (f.expiresInDays) {
    const days = Number(f.expiresInDays);
    if (!Number.isInteger(days) || days < 1 || days > 3650)
      throw new AppError('validation_error', 'Choose when the key expires from the list.');
    expiresAt = new Date(now.getTime() + days * 86_400_000).toISOString();
  }
  return { ...owner, name: f.name, scopes: f.scopes, profileIds, expiresAt };
}
