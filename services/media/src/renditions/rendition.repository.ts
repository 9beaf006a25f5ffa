import type { DataSource, EntityManager } from 'typeorm';
import type { MediaProbe } from '@postbus/contracts';
import { databaseOf } from '@postbus/kit';
import type { StagedObject } from '../ingest/stage-object';

export type RenditionStatus = 'processing' | 'ready' | 'failed' | 'discarded';

export interface Rendition {
  id: string;
  accountId: string;
  sourceMediaId: string;
  sourceSha256: string;
  preset: string;
  contentType: string;
  status: RenditionStatus;
  percent: number;
  failedReason: string | null;
  createdAt: Date;
}

interface RenditionRow {
  id: string;
  account_id: string;
  source_media_id: string;
  source_sha256: string;
  preset: string;
  content_type: string;
  status: RenditionStatus;
  percent: number;
  failed_reason: string | null;
  created_at: Date;
}

function toRendition(r: RenditionRow): Rendition {
  return {
    id: r.id,
    accountId: r.account_id,
    sourceMediaId: r.source_media_id,
    sourceSha256: r.source_sha256,
    preset: r.preset,
    contentType: r.content_type,
    status: r.status,
    percent: r.percent,
    failedReason: r.failed_reason,
    createdAt: new Date(r.created_at),
  };
}

type Db = DataSource | EntityManager;

/** The renditions table: copies of media made to fit a platform target, one per source content and preset. */
export class RenditionRepository {
  constructor(readonly ds: DataSource) {}

  async find(db: Db, id: string): Promise<Rendition | undefined> {
    const rows: RenditionRow[] = await db.query('SELECT * FROM renditions WHERE id = $1', [id]);
    return rows[0] && toRendition(rows[0]);
  }

  async findForAccount(accountId: string, id: string): Promise<Rendition | undefined> {
    const rows: RenditionRow[] = await this.ds.query(
      `SELECT * FROM renditions WHERE id = $1 AND account_id = $2 AND status <> 'discarded'`,
      [id, accountId],
    );
    return rows[0] && toRendition(rows[0]);
  }

  /** The live rendition of this content for this preset, locked until the transaction ends. */
  async findLive(
    m: EntityManager,
    accountId: string,
    sourceSha256: string,
    preset: string,
  ): Promise<Rendition | undefined> {
    const rows: RenditionRow[] = await m.query(
      `SELECT * FROM renditions WHERE account_id = $1 AND source_sha256 = $2 AND preset = $3 AND status <> 'discarded' FOR UPDATE`,
      [accountId, sourceSha256, preset],
    );
    return rows[0] && toRendition(rows[0]);
  }

  async insert(
    m: EntityManager,
    r: Pick<Rendition, 'id' | 'accountId' | 'sourceMediaId' | 'sourceSha256' | 'preset' | 'contentType'>,
  ): Promise<Rendition> {
    const rows: RenditionRow[] = await m.query(
      `INSERT INTO renditions (id, account_id, source_media_id, source_sha256, preset, content_type, status)
       VALUES ($1, $2, $3, $4, $5, $6, 'processing') RETURNING *`,
      [r.id, r.accountId, r.sourceMediaId, r.sourceSha256, r.preset, r.contentType],
    );
    return toRendition(rows[0]);
  }

  /** A failed rendition asked for again is made again, under the same id. */
  async retry(m: EntityManager, id: string): Promise<Rendition> {
    // TypeORM answers an UPDATE … RETURNING as [rows, count]; the kit's port answers the rows.
    const [row] = await databaseOf(m).updateReturning<RenditionRow>(
      `UPDATE renditions SET status = 'processing', percent = 0, failed_reason = NULL, updated_at = now() WHERE id = $1 RETURNING *`,
      [id],
    );
    return toRendition(row);
  }

  /** Its media was deleted: the next request makes a new one. */
  async discard(m: EntityManager, id: string): Promise<void> {
    await m.query(`UPDATE renditions SET status = 'discarded', updated_at = now() WHERE id = $1`, [id]);
  }

  /** Progress only moves forward, and only while processing. Answers the status. */
  async setPercent(id: string, percent: number): Promise<RenditionStatus | undefined> {
    const rows: { status: RenditionStatus }[] = await this.ds.query(
      `WITH moved AS (UPDATE renditions SET percent = greatest(percent, $2), updated_at = now() WHERE id = $1 AND status = 'processing' RETURNING status)
       SELECT status FROM moved UNION ALL SELECT status FROM renditions WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM moved)`,
      [id, percent],
    );
    return rows[0]?.status;
  }

  async markFailed(id: string, reason: string): Promise<RenditionStatus | undefined> {
    await this.ds.query(
      `UPDATE renditions SET status = 'failed', failed_reason = $2, updated_at = now() WHERE id = $1 AND status = 'processing'`,
      [id, reason],
    );
    return (await this.find(this.ds, id))?.status;
  }

  async lockStatus(m: EntityManager, id: string): Promise<RenditionStatus> {
    const [row]: { status: RenditionStatus }[] = await m.query(
      'SELECT status FROM renditions WHERE id = $1 FOR UPDATE',
      [id],
    );
    return row.status;
  }

  /** Stores the made file as the rendition's media row and marks the rendition ready, in the caller's transaction. */
  async complete(m: EntityManager, r: Rendition, staged: StagedObject, probe: MediaProbe): Promise<void> {
    await m.query(
      `INSERT INTO media (id, account_id, status, sha256, content_type, size_bytes, origin, source_url, filename, probe)
       VALUES ($1, $2, 'ready', $3, $4, $5, 'rendition', NULL, NULL, $6)`,
      [r.id, r.accountId, staged.sha256, staged.contentType, staged.sizeBytes, JSON.stringify(probe)],
    );
    await m.query(`UPDATE renditions SET status = 'ready', percent = 100, updated_at = now() WHERE id = $1`, [r.id]);
  }
}
