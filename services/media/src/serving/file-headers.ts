/** The file name extension of each type media serves (see ingest/media-types.ts). */
const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/webm': 'webm',
};

/**
 * Headers that keep a served file a file, whatever its bytes hold: it is never sniffed into
 * another type, never run as a page with {base_url}'s origin (a sandbox with no origin, nothing
 * it may load), and named `<mediaId>.<ext>`; images and videos show inline, anything else is
 * a download.
 */
export function servedFileHeaders(mediaId: string, contentType: string): Record<string, string> {
  const extension = EXTENSIONS[contentType];
  const media = contentType.startsWith('image/') || contentType.startsWith('video/');
  const name = `${mediaId.replace(/[^\w-]/g, '_')}${extension ? `.${extension}` : ''}`;
  return {
    'Content-Disposition': `${media ? 'inline' : 'attachment'}; filename="${name}"`,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "sandbox; default-src 'none'",
  };
}
