import { openMediaLink } from '@postbus/platforms';
import type { MediaInspection } from '../state';

/** A Reels cover photo: JPEG, at most 8 MB (the reference's "Reels cover photo specifications"). */
const MAX_COVER_BYTES = 8 * 1024 * 1024;
/** Instagram's subcodes for an image it cannot take (platform-apis.md 1.7): larger than 8 MB, not a JPEG. */
const COVER_TOO_LARGE = '36000/2207004';
const COVER_NOT_JPEG = '-1/2207005';
const JPEG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff]);

/**
 * The container's processing error for a reel's cover_url, or null when Instagram would take it:
 * the bytes must be a JPEG (judged from its signature, not the link's Content-Type) of at most
 * 8 MB. https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media#reels-cover-photo-specifications
 */
export async function coverProcessingError(url: string, inspection: MediaInspection): Promise<string | null> {
  const res = await openMediaLink(
    url,
    { method: 'GET' },
    { platform: 'instagram', access: { allowLoopback: true }, timeoutMs: inspection.timeoutMs },
  );
  if (res.status !== 200) {
    res.body.destroy();
    return null;
  }
  let head = Buffer.alloc(0);
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    if (head.length < JPEG_SIGNATURE.length) head = Buffer.concat([head, chunk]).subarray(0, JPEG_SIGNATURE.length);
    size += chunk.length;
    if (size > MAX_COVER_BYTES) {
      res.body.destroy();
      return COVER_TOO_LARGE;
    }
  }
  return head.equals(JPEG_SIGNATURE) ? null : COVER_NOT_JPEG;
}
