import { newId, type Principal } from '@postbus/contracts';
import type { StagedObject } from '../ingest/stage-object';
import type { LibraryTx, Media, MediaOrigin } from './media.repository';
import type { MediaPorts } from './media-ports';
import { reportMissingObject } from './missing-object';
import { storageQuotaExceeded } from './upload-allowance';

export interface RecordOptions {
  origin: MediaOrigin;
  sourceUrl: string | null;
  filename: string | null;
  quotaBytes: number;
  /** The id the media gets when it was handed out before the bytes came (an upload URL); a fresh one otherwise. */
  mediaId?: string;
}

type RecordPorts = Pick<MediaPorts, 'media' | 'store' | 'probe' | 'logger' | 'countMissingObject'>;

/**
 * Adds staged bytes to the account's library, in one transaction that holds the account's lock:
 * the quota is checked against committed usage, a link already imported answers its media, and
 * content already stored keeps its object (the staged duplicate is removed afterwards) — unless
 * storage lost that object, when the staged copy replaces it. The bytes are probed first, outside
 * the lock: a file ffprobe cannot read is refused (media_unreadable) and its staged copy removed.
 */
export async function recordMedia(
  ports: RecordPorts,
  principal: Principal,
  staged: StagedObject,
  opts: RecordOptions,
): Promise<{ media: Media; created: boolean }> {
  let committedKey: string | undefined;
  try {
    const probe = await ports.probe(staged.key, staged.contentType);
    const result = await ports.media.transaction(async (m) => {
      await ports.media.lockAccount(m, principal.accountId);
      const linked = opts.sourceUrl
        ? await ports.media.findReadyByLink(m, principal.accountId, opts.sourceUrl)
        : undefined;
      if (linked) {
        if (await ports.store.exists(linked.storageKey)) return { media: linked, created: false, key: undefined };
        // Its bytes are gone: the same bytes again restore it; other bytes become a new media under the link.
        if (linked.sha256 === staged.sha256)
          return { media: linked, created: false, key: await keepObject(ports, m, staged, linked.id) };
        await ports.media.forgetLink(m, linked.id);
      }
      const used = await ports.media.usedBytes(m, principal.accountId);
      if (used + staged.sizeBytes > opts.quotaBytes) throw storageQuotaExceeded(opts.quotaBytes - used);
      const id = opts.mediaId ?? newId('med');
      const key = await keepObject(ports, m, staged, id);
      const media = await ports.media.insert(
        m,
        { id, accountId: principal.accountId, origin: opts.origin, sourceUrl: opts.sourceUrl, filename: opts.filename },
        staged,
        probe,
      );
      return { media, created: true, key };
    });
    committedKey = result.key;
    return { media: result.media, created: result.created };
  } finally {
    if (committedKey !== staged.key) {
      await ports.store
        .delete(staged.key)
        .catch((err) =>
          ports.logger.warn('could not remove a staged object', { key: staged.key, err: (err as Error).message }),
        );
    }
  }
}

/**
 * The object that will hold this content: the staged one if the content is new, else the one
 * already kept, once confirmed stored. The blob row stays locked until the transaction ends,
 * so a concurrent delete cannot remove the object in between.
 */
async function keepObject(ports: RecordPorts, m: LibraryTx, staged: StagedObject, mediaId: string): Promise<string> {
  const key = await ports.media.claimBlob(m, staged);
  if (key === staged.key || (await ports.store.exists(key))) return key;
  await ports.media.repointBlob(m, staged.sha256, staged.key);
  reportMissingObject(ports, { operation: 'dedupe', mediaId, key, sha256: staged.sha256 });
  return staged.key;
}
