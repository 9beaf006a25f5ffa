import { Events } from '@postbus/contracts';
import { envelope } from '@postbus/bus';
import type { ProfileRow } from './profile.repository';

/** connection.changed for a profile row just written: written to the outbox in the same transaction. */
export function profileChanged(row: ProfileRow) {
  return envelope(Events.connectionChanged, {
    profileId: row.id,
    accountId: row.account_id,
    platform: row.platform,
    status: row.status,
    revision: Number(row.revision),
    connectedAt: new Date(row.connected_at).toISOString(),
  });
}
