import type { MediaProbe } from '@postbus/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { databaseOf } from '@postbus/kit';
import type { StagedObject } from '../ingest/stage-object';

export type MediaOrigin = 'upload' | 'url' | 'rendition';

export interface Media {
  id: string;
  accountId: string;
  status: 'ready' | 'deleted';
  sha256: string;
  contentType: string;
  sizeBytes: number;
  origin: MediaOrigin;
  sourceUrl: string | null;
  filename: string | null;
  /** ffprobe's figures, read once when stored; null for media stored before files were probed. */
  probe: MediaProbe | null;
  createdAt: Date;
  deletedAt: Date | null;
}

export type NewMedia = Pick<Media, 'id' | 'accountId' | 'origin' | 'sourceUrl' | 'filename'>;
/** A media with the key of the stored object that holds its bytes. */
export type StoredMedia = Media & { storageKey: string };

interface MediaRow {
  id: string;
  account_id: string;
  status: 'ready' | 'deleted';
  sha256: string;
  content_type: string;
  size_bytes: string;
  origin: MediaOrigin;
  source_url: string | null;
  filename: string | null;
  probe: MediaProbe | null;
  created_at: Date;
  deleted_at: Date | null;
}

function toMedia(r: MediaRow): Media {
  return {
    id: r.id,
    accountId: r.account_id,
    status: r.status,
    sha256: r.sha256,
    contentType: r.content_type,
    sizeBytes: Number(r.size_bytes),
    origin: r.origin,
    sourceUrl: r.source_url,
    filename: r.filename,
    probe: r.probe ?? null,
    createdAt: new Date(r.created_at),
    deletedAt: r.deleted_at ? new Date(r.deleted_at) : null,
  };
}

type Db = DataSource | EntityManager;

/** A library transaction in progress, handed to the methods that must run inside it. */
export type LibraryTx = EntityManager;

/** The media and blobs tables; every read on behalf of a caller is filtered by its account. */
export class MediaRepository {
  constructor(readonly ds: DataSource) {}

  /** Runs `work` in one transaction: it commits when `work` resolves. */
  transaction<R>(work: (tx: LibraryTx) => Promise<R>): Promise<R> {
    return this.ds.transaction(work);
  }

  /** Bytes and count of the account's ready media: what its storage quota is measured against. */
  async storageUsage(accountId: string): Promise<{ usedBytes: number; mediaCount: number }> {
    const [row]: { used: string; n: number }[] = await this.ds.query(
      `SELECT coalesce(sum(size_bytes), 0)::bigint AS used, count(*)::int AS n FROM media WHERE account_id = $1 AND status = 'ready'`,
      [accountId],
    );
    return { usedBytes: Number(row.used), mediaCount: row.n };
  }

  async findReady(accountId: string, id: string): Promise<Media | undefined> {
    const rows: MediaRow[] = await this.ds.query(
      `SELECT * FROM media WHERE id = $1 AND account_id = $2 AND status = 'ready'`,
      [id, accountId],
    );
    return rows[0] && toMedia(rows[0]);
  }

  /** A ready media and where its bytes are, for serving a signed URL (the signature stands for the account). */
  async findServable(id: string): Promise<StoredMedia | undefined> {
    const rows: (MediaRow & { storage_key: string })[] = await this.ds.query(
      `SELECT m.*, b.storage_key FROM media m JOIN blobs b ON b.sha256 = m.sha256 WHERE m.id = $1 AND m.status = 'ready'`,
      [id],
    );
    return rows[0] && { ...toMedia(rows[0]), storageKey: rows[0].storage_key };
  }

  async findReadyByLink(db: Db, accountId: string, sourceUrl: string): Promise<StoredMedia | undefined> {
    const rows: (MediaRow & { storage_key: string })[] = await db.query(
      `SELECT m.*, b.storage_key FROM media m JOIN blobs b ON b.sha256 = m.sha256 WHERE m.account_id = $1 AND m.source_url = $2 AND m.status = 'ready'`,
      [accountId, sourceUrl],
    );
    return rows[0] && { ...toMedia(rows[0]), storageKey: rows[0].storage_key };
  }

  /** Newest first; `afterId` is the last media of the previous page. Undefined when that media is not the account's. */
  async page(accountId: string, limit: number, afterId?: string): Promise<Media[] | undefined> {
    if (afterId) {
      const anchor: unknown[] = await this.ds.query('SELECT 1 FROM media WHERE id = $1 AND account_id = $2', [
        afterId,
        accountId,
      ]);
      if (!anchor.length) return undefined;
    }
    const rows: MediaRow[] = afterId
      ? await this.ds.query(
          `SELECT * FROM media WHERE account_id = $1 AND status = 'ready'
             AND (created_at, id) < (SELECT created_at, id FROM media WHERE id = $3 AND account_id = $1)
           ORDER BY created_at DESC, id DESC LIMIT $2`,
          [accountId, limit, afterId],
        )
      : await this.ds.query(
          `SELECT * FROM media WHERE account_id = $1 AND status = 'ready' ORDER BY created_at DESC, id DESC LIMIT $2`,
          [accountId, limit],
        );
    return rows.map(toMedia);
  }

  /** Serialises the account's library changes until the transaction ends (quota and link checks). */
  async lockAccount(m: EntityManager, accountId: string): Promise<void> {
    await m.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`media:${accountId}`]);
  }

  async usedBytes(db: Db, accountId: string): Promise<number> {
    // bigint comes back as text
    const [{ used }]: { used: string }[] = await db.query(
      `SELECT coalesce(sum(size_bytes), 0)::bigint AS used FROM media WHERE account_id = $1 AND status = 'ready'`,
      [accountId],
    );
    return Number(used);
  }

  /** The stored object for this content: the staged one if the content is new, else the one already kept. */
  async claimBlob(m: EntityManager, staged: StagedObject): Promise<string> {
    const [{ storage_key }]: { storage_key: string }[] = await m.query(
      `INSERT INTO blobs (sha256, storage_key, size_bytes, content_type) VALUES ($1, $2, $3, $4)
       ON CONFLICT (sha256) DO UPDATE SET sha256 = blobs.sha256
       RETURNING storage_key`,
      [staged.sha256, staged.key, staged.sizeBytes, staged.contentType],
    );
    return storage_key;
  }

  /** Points the content at another object: the staged copy of bytes whose kept object storage lost. */
  async repointBlob(m: EntityManager, sha256: string, storageKey: string): Promise<void> {
    await m.query('UPDATE blobs SET storage_key = $2 WHERE sha256 = $1', [sha256, storageKey]);
  }

  /** The link no longer names this media (its bytes are gone and the link now holds other ones). */
  async forgetLink(m: EntityManager, id: string): Promise<void> {
    await m.query('UPDATE media SET source_url = NULL WHERE id = $1', [id]);
  }

  async insert(m: EntityManager, media: NewMedia, staged: StagedObject, probe: MediaProbe): Promise<Media> {
    const rows: MediaRow[] = await m.query(
      `INSERT INTO media (id, account_id, status, sha256, content_type, size_bytes, origin, source_url, filename, probe)
       VALUES ($1, $2, 'ready', $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
      [
        media.id,
        media.accountId,
        staged.sha256,
        staged.contentType,
        staged.sizeBytes,
        media.origin,
        media.sourceUrl,
        media.filename,
        JSON.stringify(probe),
      ],
    );
    return toMedia(rows[0]);
  }

  async markDeleted(m: EntityManager, accountId: string, id: string): Promise<Media | undefined> {
    const [row] = await databaseOf(m).updateReturning<MediaRow>(
      `UPDATE media SET status = 'deleted', deleted_at = now() WHERE id = $1 AND account_id = $2 AND status = 'ready' RETURNING *`,
      [id, accountId],
    );
    return row && toMedia(row);
  }

  /** Forgets the content's object when no ready media uses it any more; answers its storage key then. */
  async releaseBlob(m: EntityManager, sha256: string): Promise<string | undefined> {
    const blobs: { storage_key: string }[] = await m.query(
      'SELECT storage_key FROM blobs WHERE sha256 = $1 FOR UPDATE',
      [sha256],
    );
    if (!blobs.length) return undefined;
    const [{ n }]: { n: number }[] = await m.query(
      `SELECT count(*)::int AS n FROM media WHERE sha256 = $1 AND status = 'ready'`,
      [sha256],
    );
    if (n > 0) return undefined;
    await m.query('DELETE FROM blobs WHERE sha256 = $1', [sha256]);
    return blobs[0].storage_key;
  }
}
