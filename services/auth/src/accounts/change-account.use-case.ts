import type { Database } from '@postbus/kit';
import { AppError, Events } from '@postbus/contracts';
import { envelope, writeOutbox } from '@postbus/bus';
import type { AccountChanges, AccountRepository, AccountRow, UserRow } from './account.repository';

export interface ChangeAccountPorts {
  db: Database;
  accounts: AccountRepository;
  /** Called after a change committed, so the outbox relay announces it at once. */
  announced: () => void;
}

/**
 * Changes an account (plan, trial, tester, disabled) and writes `auth.account.changed` in the
 * same transaction, so every gateway and mcp replica drops the verdicts it cached for the
 * account's credentials: a disabled account is refused at once, a new plan applies at once.
 */
export async function changeAccount(
  ports: ChangeAccountPorts,
  accountId: string,
  changes: AccountChanges,
): Promise<AccountRow> {
  const changed = await ports.db.transaction(async (tx) => {
    const row = await ports.accounts.update(accountId, changes, tx);
    if (row) await writeOutbox(tx, [envelope(Events.authAccountChanged, { accountId: row.id })]);
    return row;
  });
  if (!changed) throw new AppError('not_found', `No account ${accountId}.`);
  ports.announced();
  return changed;
}

/** Disables or enables one user, announcing it like an account change. */
export async function setUserDisabled(ports: ChangeAccountPorts, userId: string, disabled: boolean): Promise<UserRow> {
  const changed = await ports.db.transaction(async (tx) => {
    const row = await ports.accounts.setUserDisabled(userId, disabled, tx);
    if (row)
      await writeOutbox(tx, [envelope(Events.authAccountChanged, { accountId: row.account_id, userId: row.id })]);
    return row;
  });
  if (!changed) throw new AppError('not_found', `No user ${userId}.`);
  ports.announced();
  return changed;
}
