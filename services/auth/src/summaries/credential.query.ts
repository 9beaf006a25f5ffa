import type { DataSource } from 'typeorm';
import type { AccountOverview, Principal } from '@postbus/contracts';

/** The key (or OAuth access token) behind a principal: its name and expiry, from auth's own tables. */
export async function describeCredential(ds: DataSource, principal: Principal): Promise<AccountOverview['credential']> {
  const { type, id } = principal.credential;
  const rows: { name: string | null; expires_at: Date | null }[] =
    type === 'api_key'
      ? await ds.query('SELECT name, expires_at FROM api_keys WHERE id = $1 AND account_id = $2', [id, principal.accountId])
      : type === 'oauth'
        ? await ds.query(
            `SELECT coalesce(c.name, g.client_id) AS name, t.expires_at
               FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id LEFT JOIN oauth_clients c ON c.id = g.client_id
              WHERE t.id = $1 AND g.account_id = $2`,
            [id, principal.accountId],
          )
        : [];
  const row = rows[0];
  return {
    type,
    id,
    name: row?.name ?? null,
    scopes: principal.scopes,
    profileIds: principal.profileIds,
    expiresAt: row?.expires_at ? new Date(row.expires_at).toISOString() : null,
  };
}
