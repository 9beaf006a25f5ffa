/**
 * What platforms accept and Postbus stores: detected types, normalised to the type served.
 * An animated PNG is a PNG by its signature and is detected as one.
 */
const ACCEPTED = {
  'image/jpeg': 'image/jpeg',
  'image/png': 'image/png',
  'image/webp': 'image/webp',
  'image/gif': 'image/gif',
  'image/heic': 'image/heic',
  'video/mp4': 'video/mp4',
  'video/x-m4v': 'video/mp4',
  'video/quicktime': 'video/quicktime',
  'video/webm': 'video/webm',
} as const satisfies Record<string, string>;

/** A type the sniffer can report: only the accepted ones, so nothing else has a name to slip through. */
export type DetectedType = keyof typeof ACCEPTED;

export const ACCEPTED_DESCRIPTION = 'JPEG, PNG, WebP, GIF or HEIC images and MP4, MOV or WebM videos';

/** The content type to store for a detected MIME type, or undefined when it is not accepted. */
export function acceptedContentType(detectedMime: string | undefined): string | undefined {
  return detectedMime && Object.hasOwn(ACCEPTED, detectedMime) ? ACCEPTED[detectedMime as DetectedType] : undefined;
}

/** A web page rather than a file: the start of the bytes reads as HTML. */
export function looksLikeHtml(head: Buffer): boolean {
  const text = head
    .subarray(0, 1024)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  return (
    text.startsWith('<!doctype html') ||
    text.startsWith('<html') ||
    text.startsWith('<head') ||
    text.startsWith('<body') ||
    (text.startsWith('<') && text.includes('<html'))
  );
}
