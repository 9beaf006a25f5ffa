import { AppError, type MediaAsset, type MediaPage, type Principal } from '@postbus/contracts';
import { toMediaAsset } from './media-asset';
import type { MediaPorts } from './media-ports';

type ReadPorts = Pick<MediaPorts, 'media' | 'signer' | 'publicBaseUrl'>;

/** GET /media/{id}: another account's media answers exactly as a missing one. */
export async function getMedia(ports: ReadPorts, principal: Principal, mediaId: string): Promise<MediaAsset> {
  const media = await ports.media.findReady(principal.accountId, mediaId);
  if (!media) throw new AppError('not_found', `No media ${mediaId}.`);
  return toMediaAsset(media, ports.signer, ports.publicBaseUrl);
}

/** For posts: a mediaId becomes its serve URL, or media_not_found (missing, deleted or another account's). */
export async function resolveMedia(ports: ReadPorts, principal: Principal, mediaId: string): Promise<MediaAsset> {
  const media = await ports.media.findReady(principal.accountId, mediaId);
  if (!media) throw new AppError('media_not_found', `Media ${mediaId} does not exist in this account or was deleted.`);
  return toMediaAsset(media, ports.signer, ports.publicBaseUrl);
}

const DEFAULT_PAGE = 20;

export async function listMedia(
  ports: ReadPorts,
  principal: Principal,
  q: { limit?: number; cursor?: string },
): Promise<MediaPage> {
  const limit = q.limit ?? DEFAULT_PAGE;
  const afterId = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
  // One more than asked tells whether a next page exists.
  const rows = await ports.media.page(principal.accountId, limit + 1, afterId);
  if (!rows)
    throw new AppError(
      'validation_error',
      'cursor: not a cursor of this list; pass nextCursor from the previous page.',
    );
  const page = rows.slice(0, limit);
  return {
    media: page.map((m) => toMediaAsset(m, ports.signer, ports.publicBaseUrl)),
    count: page.length,
    nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1].id) : null,
  };
}

function encodeCursor(id: string): string {
  return Buffer.from(id).toString('base64url');
}

function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^med_\w+$/.test(id))
    throw new AppError(
      'validation_error',
      'cursor: not a cursor of this list; pass nextCursor from the previous page.',
    );
  return id;
}
