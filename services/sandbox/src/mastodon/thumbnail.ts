import { imageTypeOf } from '../image-bytes';

/**
 * The image types an instance takes as a media's `thumbnail` (Mastodon's IMAGE_MIME_TYPES that the
 * sandbox can tell from bytes): https://docs.joinmastodon.org/methods/media/#v2 names the parameter,
 * the instance's attachment rules check that it is an image of at most its image size limit.
 */
const THUMBNAIL_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/** The checked `thumbnail` part of an upload, or why the instance refuses it (422's message). */
export function checkThumbnail(
  data: Buffer,
  imageSizeLimit: number,
): { ok: true; contentType: string; size: number } | { ok: false; message: string } {
  const contentType = imageTypeOf(data);
  if (!THUMBNAIL_TYPES.includes(contentType))
    return { ok: false, message: 'Validation failed: Thumbnail content type is invalid' };
  if (data.length > imageSizeLimit)
    return { ok: false, message: `Validation failed: Thumbnail file size must be less than ${imageSizeLimit} Bytes` };
  return { ok: true, contentType, size: data.length };
}
