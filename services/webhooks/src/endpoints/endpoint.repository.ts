import type { DataSource } from 'typeorm';
import { databaseOf, type Database, type DatabaseSource } from '@postbus/kit';
import type { WebhookSecretBox } from './webhook-secret-box';

export type EndpointStatus = 'enabled' | 'disabled' | 'deleted';

export interface Endpoint {
  id: string;
  accountId: string;
  url: string;
  description: string | null;
  events: string[];
  status: EndpointStatus;
  disabledReason: string | null;
  disabledAt: Date | null;
  /** Start of the current run of failed attempts; null after a success. */
  failingSince: Date | null;
  /** The signing secrets as stored: sealed, opened only to sign (WebhookSecretBox). */
  sealedSecret: string;
  sealedPreviousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewEndpoint = Pick<Endpoint, 'id' | 'accountId' | 'url' | 'description' | 'events'> & { secret: string };

/** An endpoint's stored secrets, for re-sealing. */
export interface StoredSecrets {
  id: string;
  secret: string;
  previousSecret: string | null;
}

/** Columns a change may set (undefined leaves one as it is). */
export interface EndpointChange {
  url?: string;
  events?: string[];
  description?: string | null;
  status?: EndpointStatus;
  disabledReason?: string | null;
  disabledAt?: Date | null;
  failingSince?: Date | null;
}

interface EndpointRow {
  id: string;
  account_id: string;
  url: string;
  description: string | null;
  events: string[];
  status: EndpointStatus;
  disabled_reason: string | null;
  disabled_at: Date | null;
  failing_since: Date | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS: Record<keyof EndpointChange, string> = {
  url: 'url',
  events: 'events',
  description: 'description',
  status: 'status',
  disabledReason: 'disabled_reason',
  disabledAt: 'disabled_at',
  failingSince: 'failing_since',
};

const date = (d: Date | null) => (d ? new Date(d) : null);

function toEndpoint(r: EndpointRow): Endpoint {
  return {
    id: r.id,
    accountId: r.account_id,
    url: r.url,
    description: r.description,
    events: r.events,
    status: r.status,
    disabledReason: r.disabled_reason,
    disabledAt: date(r.disabled_at),
    failingSince: date(r.failing_since),
    sealedSecret: r.secret,
    sealedPreviousSecret: r.previous_secret,
    previousSecretExpiresAt: date(r.previous_secret_expires_at),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

/** The data source, a transaction's manager, or the port: whichever transaction the caller holds. */
type Db = DatabaseSource;

/** The endpoints table; every read on behalf of a caller is filtered by its account, deleted endpoints are never answered. */
export class EndpointRepository {
  private readonly db: Database;

  constructor(
    readonly ds: DataSource,
    private readonly secrets: WebhookSecretBox,
  ) {
    this.db = databaseOf(ds);
  }

  /** Stores the endpoint with its secret sealed. */
  async insert(e: NewEndpoint, now: Date): Promise<Endpoint> {
    const rows: EndpointRow[] = await this.ds.query(
      `INSERT INTO endpoints (id, account_id, url, description, events, status, secret, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, 'enabled', $6, $7, $7) RETURNING *`,
      [e.id, e.accountId, e.url, e.description, e.events, this.secrets.seal(e.id, 'secret', e.secret), now],
    );
    return toEndpoint(rows[0]);
  }

  async findForAccount(accountId: string, id: string, db: Db = this.db): Promise<Endpoint | undefined> {
    const rows: EndpointRow[] = await databaseOf(db).query(
      `SELECT * FROM endpoints WHERE id = $1 AND account_id = $2 AND status <> 'deleted'`,
      [id, accountId],
    );
    return rows[0] && toEndpoint(rows[0]);
  }

  async listForAccount(accountId: string): Promise<Endpoint[]> {
    const rows: EndpointRow[] = await this.ds.query(
      `SELECT * FROM endpoints WHERE account_id = $1 AND status <> 'deleted' ORDER BY created_at DESC, id DESC`,
      [accountId],
    );
    return rows.map(toEndpoint);
  }

  /** Endpoints by id whatever their state (the delivery loop needs to see deleted and disabled ones too). */
  async findByIds(ids: string[]): Promise<Map<string, Endpoint>> {
    if (!ids.length) return new Map();
    const rows: EndpointRow[] = await this.ds.query('SELECT * FROM endpoints WHERE id = ANY($1)', [ids]);
    return new Map(rows.map((r) => [r.id, toEndpoint(r)]));
  }

  /** Enabled endpoints subscribed to an event type, of one account or (accountId undefined) of every account. */
  async subscribed(eventType: string, accountId?: string): Promise<Endpoint[]> {
    const rows: EndpointRow[] = accountId
      ? await this.ds.query(
          `SELECT * FROM endpoints WHERE status = 'enabled' AND events @> ARRAY[$1]::text[] AND account_id = $2`,
          [eventType, accountId],
        )
      : await this.ds.query(`SELECT * FROM endpoints WHERE status = 'enabled' AND events @> ARRAY[$1]::text[]`, [
          eventType,
        ]);
    return rows.map(toEndpoint);
  }

  /** Applies a change to an endpoint that is not deleted; undefined when there is none (or it is another account's). */
  async change(
    db: Db,
    id: string,
    change: EndpointChange,
    now: Date,
    accountId?: string,
  ): Promise<Endpoint | undefined> {
    const sets: string[] = ['updated_at = $2'];
    const values: unknown[] = [id, now];
    for (const [key, column] of Object.entries(COLUMNS) as [keyof EndpointChange, string][]) {
      if (change[key] === undefined) continue;
      values.push(change[key]);
      sets.push(`${column} = $${values.length}`);
    }
    let where = `id = $1 AND status <> 'deleted'`;
    if (accountId !== undefined) {
      values.push(accountId);
      where += ` AND account_id = $${values.length}`;
    }
    const rows = await databaseOf(db).updateReturning<EndpointRow>(
      `UPDATE endpoints SET ${sets.join(', ')} WHERE ${where} RETURNING *`,
      values,
    );
    return rows[0] && toEndpoint(rows[0]);
  }

  /**
   * The new secret signs from now on; the one it replaces (read under the row's lock) keeps signing
   * until `previousExpiresAt`. Each is sealed for the column it is stored in.
   */
  async rotate(
    accountId: string,
    id: string,
    secret: string,
    previousExpiresAt: Date,
    now: Date,
  ): Promise<Endpoint | undefined> {
    return this.db.transaction(async (m) => {
      const [current]: EndpointRow[] = await m.query(
        `SELECT id, secret FROM endpoints WHERE id = $1 AND account_id = $2 AND status <> 'deleted' FOR UPDATE`,
        [id, accountId],
      );
      if (!current) return undefined;
      const previous = this.secrets.seal(id, 'previous_secret', this.secrets.open(id, 'secret', current.secret));
      const rows = await m.updateReturning<EndpointRow>(
        `UPDATE endpoints SET previous_secret = $2, secret = $3, previous_secret_expires_at = $4, updated_at = $5 WHERE id = $1 RETURNING *`,
        [id, previous, this.secrets.seal(id, 'secret', secret), previousExpiresAt, now],
      );
      return toEndpoint(rows[0]);
    });
  }

  /** Endpoints after `afterId` (any state) holding a secret that does not start with `prefix`, locked for re-sealing. */
  async lockSecretsStoredOtherwise(m: Db, prefix: string, afterId: string, limit: number): Promise<StoredSecrets[]> {
    const rows: Pick<EndpointRow, 'id' | 'secret' | 'previous_secret'>[] = await databaseOf(m).query(
      `SELECT id, secret, previous_secret FROM endpoints
       WHERE id > $3 AND (NOT starts_with(secret, $1) OR (previous_secret IS NOT NULL AND NOT starts_with(previous_secret, $1)))
       ORDER BY id LIMIT $2 FOR UPDATE`,
      [prefix, limit, afterId],
    );
    return rows.map((r) => ({ id: r.id, secret: r.secret, previousSecret: r.previous_secret }));
  }

  async saveSealedSecrets(m: Db, id: string, secret: string, previousSecret: string | null): Promise<void> {
    await databaseOf(m).query('UPDATE endpoints SET secret = $2, previous_secret = $3 WHERE id = $1', [
      id,
      secret,
      previousSecret,
    ]);
  }

  /** How many stored secrets start with `prefix` (are sealed with that key). */
  async countSecretsStoredWith(prefix: string): Promise<number> {
    const [{ n }] = await this.ds.query<{ n: number }[]>(
      `SELECT (count(*) FILTER (WHERE starts_with(secret, $1)) + count(*) FILTER (WHERE starts_with(previous_secret, $1)))::int AS n FROM endpoints`,
      [prefix],
    );
    return n;
  }

  async markDeleted(m: Db, accountId: string, id: string, now: Date): Promise<Endpoint | undefined> {
    const rows = await databaseOf(m).updateReturning<EndpointRow>(
      `UPDATE endpoints SET status = 'deleted', deleted_at = $3, updated_at = $3 WHERE id = $1 AND account_id = $2 AND status <> 'deleted' RETURNING *`,
      [id, accountId, now],
    );
    return rows[0] && toEndpoint(rows[0]);
  }

  /** A failed attempt: starts (or continues) the endpoint's run of failures; answers when the run began. */
  async noteFailure(m: Db, id: string, at: Date): Promise<Endpoint | undefined> {
    const rows = await databaseOf(m).updateReturning<EndpointRow>(
      `UPDATE endpoints SET failing_since = coalesce(failing_since, $2) WHERE id = $1 RETURNING *`,
      [id, at],
    );
    return rows[0] && toEndpoint(rows[0]);
  }

  /** A successful attempt ends the run of failures. */
  async noteSuccess(m: Db, id: string): Promise<void> {
    await databaseOf(m).query('UPDATE endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL', [
      id,
    ]);
  }
}
