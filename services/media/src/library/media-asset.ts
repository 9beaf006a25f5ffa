import type { MediaAsset } from '@postbus/contracts';
import type { UrlSigner } from '../serving/url-signer';
import type { Media } from './media.repository';

/** A media row as the API shows it, with a freshly signed serve URL under `baseUrl`. */
export function toMediaAsset(media: Media, signer: UrlSigner, baseUrl: string): MediaAsset {
  return {
    mediaId: media.id,
    url: signer.sign(media.id, baseUrl),
    contentType: media.contentType,
    sizeBytes: media.sizeBytes,
    status: media.status,
    createdAt: media.createdAt.toISOString(),
    probe: media.probe,
  };
}
