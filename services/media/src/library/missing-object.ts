import { AppError } from '@postbus/contracts';
import type { MediaPorts, MissingObjectOperation } from './media-ports';

export type MissingObjectPorts = Pick<MediaPorts, 'logger' | 'countMissingObject'>;

/**
 * Storage lost an object a media row names (an emptied store, a database restored or shared
 * without its objects): a warning and a counter, so operators learn of it before users do.
 */
export function reportMissingObject(
  ports: MissingObjectPorts,
  found: { operation: MissingObjectOperation; mediaId: string; key: string; sha256: string },
): void {
  ports.logger.warn('stored object missing', found);
  ports.countMissingObject(found.operation);
}

/** The media is known but its bytes are not: a new upload of the same file restores it. */
export function mediaGone(mediaId: string): AppError {
  return new AppError(
    'media_gone',
    `The file of media ${mediaId} is no longer in storage. Upload the same file again to restore this media, or upload a new file and use its mediaId.`,
  );
}
