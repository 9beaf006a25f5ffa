import type { MediaAsset } from '@postbus/contracts';
import { toMediaAsset } from '../library/media-asset';
import type { Media } from '../library/media.repository';
import type { RenditionPorts } from './rendition-ports';
import type { Rendition } from './rendition.repository';

/**
 * A rendition as the API shows it: its media once made; before that, what it will be (its
 * content type, a serve URL that works once it is ready) with status processing and percent,
 * or failed with the reason.
 */
export function renditionAsset(
  ports: Pick<RenditionPorts, 'signer' | 'publicBaseUrl'>,
  r: Rendition,
  media?: Media,
): MediaAsset {
  const rendition = { sourceMediaId: r.sourceMediaId, preset: r.preset };
  if (media) return { ...toMediaAsset(media, ports.signer, ports.publicBaseUrl), percent: 100, rendition };
  return {
    mediaId: r.id,
    url: ports.signer.sign(r.id, ports.publicBaseUrl),
    contentType: r.contentType,
    sizeBytes: 0,
    status: r.status === 'failed' ? 'failed' : 'processing',
    createdAt: r.createdAt.toISOString(),
    probe: null,
    percent: r.percent,
    rendition,
    ...(r.failedReason && { failedReason: r.failedReason }),
  };
}
