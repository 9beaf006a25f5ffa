import type { DataSource } from 'typeorm';
import { databaseOf, type Database } from '@postbus/kit';
import { AppError, newId } from '@postbus/contracts';
import { PasswordHasher } from './password';
import { assertKnownPlan } from './plans';

export interface AccountRow {
  id: string;
  name: string;
  plan: string;
  tester: boolean;
  disabled: boolean;
  trial_ends_at: Date;
  created_at: Date;
}

export interface UserRow {
  id: string;
  account_id: string;
  email: string;
  password_hash: string | null;
  disabled: boolean;
  created_at: Date;
}

/** Whether a user and its account may use the API, as `isEntitled` and the disabled flags decide it. */
export interface ApiAccess {
  user_disabled: boolean;
  account_disabled: boolean;
  plan: string;
  tester: boolean;
  trial_ends_at: Date;
}

export interface AccountChanges {
  plan?: string;
  tester?: boolean;
  disabled?: boolean;
  trialEndsAt?: string;
}

export class AccountRepository {
  private readonly db: Database;

  constructor(
    private readonly ds: DataSource,
    private readonly trialDays: number,
    private readonly passwords: PasswordHasher = new PasswordHasher(),
  ) {
    this.db = databaseOf(ds);
  }

  async create(input: {
    email: string;
    password?: string;
    plan?: string;
    tester?: boolean;
    name?: string;
  }): Promise<{ accountId: string; userId: string }> {
    if (input.plan !== undefined) assertKnownPlan(input.plan);
    const accountId = newId('acc');
    const userId = newId('usr');
    const passwordHash = input.password ? await this.passwords.hash(input.password) : null;
    try {
      await this.ds.transaction(async (m) => {
        await m.query(
          `INSERT INTO accounts (id, name, plan, tester, trial_ends_at) VALUES ($1, $2, $3, $4, now() + make_interval(days => $5))`,
          [accountId, input.name ?? input.email, input.plan ?? 'trial', input.tester ?? false, this.trialDays],
        );
        await m.query('INSERT INTO users (id, account_id, email, password_hash) VALUES ($1, $2, $3, $4)', [
          userId,
          accountId,
          input.email,
          passwordHash,
        ]);
      });
    } catch (err) {
      if ((err as { code?: string }).code === '23505')
        throw new AppError('validation_error', `An account for ${input.email} already exists.`);
      throw err;
    }
    return { accountId, userId };
  }

  async find(id: string): Promise<AccountRow | undefined> {
    const rows: AccountRow[] = await this.ds.query('SELECT * FROM accounts WHERE id = $1', [id]);
    return rows[0];
  }

  /** Applies the given changes only (in `db`'s transaction when given); answers undefined when there is no such account. */
  async update(id: string, changes: AccountChanges, db: Database = this.db): Promise<AccountRow | undefined> {
    if (changes.plan !== undefined) assertKnownPlan(changes.plan);
    const [row] = await db.updateReturning<AccountRow>(
      `UPDATE accounts SET plan = coalesce($2, plan), tester = coalesce($3, tester), disabled = coalesce($4, disabled), trial_ends_at = coalesce($5::timestamptz, trial_ends_at)
        WHERE id = $1 RETURNING *`,
      [id, changes.plan ?? null, changes.tester ?? null, changes.disabled ?? null, changes.trialEndsAt ?? null],
    );
    return row;
  }

  async findUserByEmail(email: string): Promise<UserRow | undefined> {
    const rows: UserRow[] = await this.ds.query('SELECT * FROM users WHERE lower(email) = lower($1)', [email]);
    return rows[0];
  }

  async findUser(id: string): Promise<UserRow | undefined> {
    const rows: UserRow[] = await this.ds.query('SELECT * FROM users WHERE id = $1', [id]);
    return rows[0];
  }

  /** Stores a new hash of the same password, unless the hash changed meanwhile. */
  async replacePasswordHash(userId: string, previousHash: string, newHash: string): Promise<void> {
    await this.ds.query('UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2', [
      userId,
      previousHash,
      newHash,
    ]);
  }

  async setUserDisabled(id: string, disabled: boolean, db: Database = this.db): Promise<UserRow | undefined> {
    const [row] = await db.updateReturning<UserRow>('UPDATE users SET disabled = $2 WHERE id = $1 RETURNING *', [
      id,
      disabled,
    ]);
    return row;
  }

  /** The user's and account's flags and plan; undefined when the user is not in that account. */
  async findApiAccess(userId: string, accountId: string): Promise<ApiAccess | undefined> {
    return this.db.one<ApiAccess>(
      `SELECT u.disabled AS user_disabled, a.disabled AS account_disabled, a.plan, a.tester, a.trial_ends_at
         FROM users u JOIN accounts a ON a.id = u.account_id
        WHERE u.id = $1 AND a.id = $2`,
      [userId, accountId],
    );
  }
}
