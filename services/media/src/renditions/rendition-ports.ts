import type { MediaPorts } from '../library/media-ports';
import type { RenditionRepository } from './rendition.repository';
import type { RenditionUploadSigner } from './upload-signer';

/** The media ports, with the renditions table and the signer of upload paths. */
export interface RenditionPorts extends Pick<
  MediaPorts,
  'media' | 'store' | 'probe' | 'signer' | 'publicBaseUrl' | 'announce' | 'logger'
> {
  renditions: RenditionRepository;
  renditionUploads: RenditionUploadSigner;
  /** Largest rendition file media stores. */
  maxRenditionBytes: number;
}
