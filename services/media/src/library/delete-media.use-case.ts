import { AppError, Events, type Principal } from '@postbus/contracts';
import { envelope, writeOutbox } from '@postbus/bus';
import type { MediaPorts } from './media-ports';

/**
 * Marks the media deleted and announces media.deleted in the same transaction. The stored object
 * goes too once no other media shares its content.
 */
export async function deleteMedia(
  ports: Pick<MediaPorts, 'media' | 'store' | 'announce' | 'logger'>,
  principal: Principal,
  mediaId: string,
) {
  const { media, releasedKey } = await ports.media.transaction(async (m) => {
    const deleted = await ports.media.markDeleted(m, principal.accountId, mediaId);
    if (!deleted) throw new AppError('not_found', `No media ${mediaId}.`);
    const key = await ports.media.releaseBlob(m, deleted.sha256);
    await writeOutbox(m, [envelope(Events.mediaDeleted, { mediaId: deleted.id, accountId: deleted.accountId })]);
    return { media: deleted, releasedKey: key };
  });
  ports.announce();
  if (releasedKey) {
    await ports.store
      .delete(releasedKey)
      .catch((err) =>
        ports.logger.warn('could not remove a released object', { key: releasedKey, err: (err as Error).message }),
      );
  }
  return { mediaId: media.id, status: 'deleted' as const, deletedAt: (media.deletedAt ?? new Date()).toISOString() };
}
