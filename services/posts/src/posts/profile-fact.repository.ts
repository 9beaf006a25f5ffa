import type { DataSource } from 'typeorm';
import { databaseOf, type Database } from '@postbus/kit';

/** What posts knows of one of connections' profiles, and when connections last said so. */
export interface ProfileFact {
  profileId: string;
  accountId: string;
  platform: string;
  status: string;
  connectedAt: Date;
  /** connections' counter for the profile's status: a fact with a lower one is older. */
  revision: number;
  checkedAt: Date;
}

interface ProfileFactRow {
  profile_id: string;
  account_id: string;
  platform: string;
  status: string;
  connected_at: Date;
  revision: string;
  checked_at: Date;
}

const toFact = (r: ProfileFactRow): ProfileFact => ({
  profileId: r.profile_id,
  accountId: r.account_id,
  platform: r.platform,
  status: r.status,
  connectedAt: new Date(r.connected_at),
  revision: Number(r.revision),
  checkedAt: new Date(r.checked_at),
});

/** The profile_facts table: one row per profile, only ever moved to a newer (or the same) revision. */
export class ProfileFactRepository {
  private readonly db: Database;

  constructor(ds: DataSource | Database) {
    this.db = databaseOf(ds);
  }

  /** The facts held for these profiles, whatever their account. */
  async find(profileIds: string[]): Promise<ProfileFact[]> {
    if (!profileIds.length) return [];
    const rows = await this.db.query<ProfileFactRow>('SELECT * FROM profile_facts WHERE profile_id = ANY($1)', [
      profileIds,
    ]);
    return rows.map(toFact);
  }

  /**
   * Stores the facts, each unless a newer revision is held already (an event heard late, or an
   * answer read before an event that came first). The same revision again only renews checked_at.
   */
  async save(facts: Omit<ProfileFact, 'checkedAt'>[], checkedAt: Date): Promise<void> {
    if (!facts.length) return;
    // One row per profile, the newest: a statement may not update a row twice.
    const newest = new Map<string, Omit<ProfileFact, 'checkedAt'>>();
    for (const f of facts) if ((newest.get(f.profileId)?.revision ?? -1) < f.revision) newest.set(f.profileId, f);
    await this.db.query(
      `INSERT INTO profile_facts AS f (profile_id, account_id, platform, status, connected_at, revision, checked_at)
       SELECT x.profile_id, x.account_id, x.platform, x.status, x.connected_at, x.revision, $2
       FROM json_to_recordset($1::json) AS x(profile_id text, account_id text, platform text, status text, connected_at timestamptz, revision bigint)
       ON CONFLICT (profile_id) DO UPDATE SET account_id = EXCLUDED.account_id, platform = EXCLUDED.platform,
         status = EXCLUDED.status, connected_at = EXCLUDED.connected_at, revision = EXCLUDED.revision, checked_at = EXCLUDED.checked_at
       WHERE f.revision <= EXCLUDED.revision`,
      [
        JSON.stringify(
          [...newest.values()].map((f) => ({
            profile_id: f.profileId,
            account_id: f.accountId,
            platform: f.platform,
            status: f.status,
            connected_at: f.connectedAt.toISOString(),
            revision: f.revision,
          })),
        ),
        checkedAt,
      ],
    );
  }
}
