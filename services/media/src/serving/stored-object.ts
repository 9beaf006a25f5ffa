import type { Readable } from 'node:stream';
import { mediaGone, reportMissingObject, type MissingObjectPorts } from '../library/missing-object';
import type { StoredMedia } from '../library/media.repository';
import { MissingObjectError, type ByteRange, type MediaStore } from '../storage/media-store';

export type StoredObjectPorts = MissingObjectPorts & { store: MediaStore };

/**
 * The media's bytes (or one range of them), or with `'check'` only the certainty that they are
 * stored (HEAD, 304). A lost object is reported to operators and answers media_gone.
 */
export async function openStored(
  ports: StoredObjectPorts,
  media: StoredMedia,
  read: { range?: ByteRange } | 'check',
): Promise<Readable | undefined> {
  try {
    if (read !== 'check') return await ports.store.open(media.storageKey, read.range);
    if (await ports.store.exists(media.storageKey)) return undefined;
  } catch (err) {
    if (!(err instanceof MissingObjectError)) throw err;
  }
  reportMissingObject(ports, { operation: 'serve', mediaId: media.id, key: media.storageKey, sha256: media.sha256 });
  throw mediaGone(media.id);
}
