import type { DataSource } from 'typeorm';
import { AppError, newId } from '@postbus/contracts';
import { hashPassword } from './password';
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

export interface AccountChanges {
  plan?: string;
  tester?: boolean;
  disabled?: boolean;
  trialEndsAt?: string;
}

export class AccountRepository {
  constructor(
    private readonly ds: DataSource,
    private readonly trialDays: number,
  ) {}

  async create(input: { email: string; password?: string; plan?: string; tester?: boolean; name?: string }): Promise<{ accountId: string; userId: string }> {
    if (input.plan !== undefined) assertKnownPlan(input.plan);
    const accountId = newId('acc');
    const userId = newId('usr');
    const passwordHash = input.password ? await hashPassword(input.password) : null;
    try {
      await this.ds.transaction(async (m) => {
        await m.query(`INSERT INTO accounts (id, name, plan, tester, trial_ends_at) VALUES ($1, $2, $3, $4, now() + make_interval(days => $5))`, [
          accountId,
          input.name ?? input.email,
          input.plan ?? 'trial',
          input.tester ?? false,
          this.trialDays,
        ]);
        await m.query('INSERT INTO users (id, account_id, email, password_hash) VALUES ($1, $2, $3, $4)', [userId, accountId, input.email, passwordHash]);
      });
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw new AppError('validation_error', `An account for ${input.email} already exists.`);
      throw err;
    }
    return { accountId, userId };
  }

  async find(id: string): Promise<AccountRow | undefined> {
    const rows: AccountRow[] = await this.ds.query('SELECT * FROM accounts WHERE id = $1', [id]);
    return rows[0];
  }

  /** Applies the given changes only; answers undefined when there is no such account. */
  async update(id: string, changes: AccountChanges): Promise<AccountRow | undefined> {
    if (changes.plan !== undefined) assertKnownPlan(changes.plan);
    // TypeORM answers an UPDATE … RETURNING as [rows, affected].
    const [rows]: [AccountRow[], number] = await this.ds.query(
      `UPDATE accounts SET plan = coalesce($2, plan), tester = coalesce($3, tester), disabled = coalesce($4, disabled), trial_ends_at = coalesce($5::timestamptz, trial_ends_at)
        WHERE id = $1 RETURNING *`,
      [id, changes.plan ?? null, changes.tester ?? null, changes.disabled ?? null, changes.trialEndsAt ?? null],
    );
    return rows[0];
  }

  async findUserByEmail(email: string): Promise<UserRow | undefined> {
    const rows: UserRow[] = await this.ds.query('SELECT * FROM users WHERE lower(email) = lower($1)', [email]);
    return rows[0];
  }

  async findUser(id: string): Promise<UserRow | undefined> {
    const rows: UserRow[] = await this.ds.query('SELECT * FROM users WHERE id = $1', [id]);
    return rows[0];
  }

  async setUserDisabled(id: string, disabled: boolean): Promise<UserRow | undefined> {
    const [rows]: [UserRow[], number] = await this.ds.query('UPDATE users SET disabled = $2 WHERE id = $1 RETURNING *', [id, disabled]);
    return rows[0];
  }
}
