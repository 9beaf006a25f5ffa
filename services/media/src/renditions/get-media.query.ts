import { AppError, type MediaAsset, type Principal } from '@postbus/contracts';
import { getMedia } from '../library/find-media.queries';
import { renditionAsset } from './rendition-asset';
import type { RenditionPorts } from './rendition-ports';

/**
 * GET /media/{id}, renditions included: a ready one is its media with the rendition it is; one
 * still being made answers status processing and its percent, a failed one its reason.
 */
export async function getMediaOrRendition(
  ports: Pick<RenditionPorts, 'media' | 'renditions' | 'signer' | 'publicBaseUrl'>,
  principal: Principal,
  mediaId: string,
): Promise<MediaAsset> {
  const media = await ports.media.findReady(principal.accountId, mediaId);
  if (media && media.origin !== 'rendition') return getMedia(ports, principal, mediaId);
  const rendition = await ports.renditions.findForAccount(principal.accountId, mediaId);
  if (!rendition) {
    if (media) return getMedia(ports, principal, mediaId);
    throw new AppError('not_found', `No media ${mediaId}.`);
  }
  return renditionAsset(ports, rendition, media);
}
