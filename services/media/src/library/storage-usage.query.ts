import type { DataSource } from 'typeorm';
import type { StorageUsage } from '@postbus/contracts';

/** Bytes and count of the account's ready media: what its storage quota is measured against. */
export async function getStorageUsage(ds: DataSource, accountId: string): Promise<StorageUsage> {
  const [row]: { used: string; n: number }[] = await ds.query(
    `SELECT coalesce(sum(size_bytes), 0)::bigint AS used, count(*)::int AS n FROM media WHERE account_id = $1 AND status = 'ready'`,
    [accountId],
  );
  return { usedBytes: Number(row.used), mediaCount: row.n };
}
