import { newId, type Principal } from '@postbus/contracts';
import type { StagedObject } from '../ingest/stage-object';
import type { Media, MediaOrigin } from './media.repository';
import type { MediaPorts } from './media-ports';
import { storageQuotaExceeded } from './upload-allowance';

export interface RecordOptions {
  origin: MediaOrigin;
  sourceUrl: string | null;
  filename: string | null;
  quotaBytes: number;
}

/**
 * Adds staged bytes to the account's library, in one transaction that holds the account's lock:
 * the quota is checked against committed usage, a link already imported answers its media, and
 * content already stored keeps its object (the staged duplicate is removed afterwards).
 */
export async function recordMedia(ports: Pick<MediaPorts, 'media' | 'store' | 'logger'>, principal: Principal, staged: StagedObject, opts: RecordOptions): Promise<{ media: Media; created: boolean }> {
  let committedKey: string | undefined;
  try {
    const result = await ports.media.ds.transaction(async (m) => {
      await ports.media.lockAccount(m, principal.accountId);
      if (opts.sourceUrl) {
        const existing = await ports.media.findReadyByLink(m, principal.accountId, opts.sourceUrl);
        if (existing) return { media: existing, created: false, key: undefined };
      }
      const used = await ports.media.usedBytes(m, principal.accountId);
      if (used + staged.sizeBytes > opts.quotaBytes) throw storageQuotaExceeded(opts.quotaBytes - used);
      const key = await ports.media.claimBlob(m, staged);
      const media = await ports.media.insert(m, { id: newId('med'), accountId: principal.accountId, origin: opts.origin, sourceUrl: opts.sourceUrl, filename: opts.filename }, staged);
      return { media, created: true, key };
    });
    committedKey = result.key;
    return { media: result.media, created: result.created };
  } finally {
    if (committedKey !== staged.key) {
      await ports.store.delete(staged.key).catch((err) => ports.logger.warn('could not remove a staged object', { key: staged.key, err: (err as Error).message }));
    }
  }
}
