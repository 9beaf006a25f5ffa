export type MediaKind = 'image' | 'video';

const VIDEO_EXTENSIONS = /\.(mp4|m4v|mov|qt|webm|mkv|avi|mpe?g|3gp)$/i;
const IMAGE_EXTENSIONS = /\.(jpe?g|png|gif|webp|heic|heif|bmp|tiff?)$/i;

/** Video or image from the extension of the URL's path (query strings ignored); undefined when it has none we know. */
export function mediaKindFromUrl(url: string): MediaKind | undefined {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // not an absolute URL: the platform will refuse it; guess from the raw string meanwhile
  }
  if (VIDEO_EXTENSIONS.test(path)) return 'video';
  if (IMAGE_EXTENSIONS.test(path)) return 'image';
  return undefined;
}

/**
 * Video or image: from the extension when there is one, else from the Content-Type a HEAD
 * request answers (stored media is served as `/files/<id>?sig=…`, without an extension).
 * When neither tells, an image is assumed and the platform has the last word.
 */
export async function detectMediaKind(url: string, opts: { fetchImpl?: typeof fetch; timeoutMs?: number } = {}): Promise<MediaKind> {
  const fromUrl = mediaKindFromUrl(url);
  if (fromUrl) return fromUrl;
  try {
    const res = await (opts.fetchImpl ?? fetch)(url, { method: 'HEAD', signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000) });
    const type = res.headers.get('content-type') ?? '';
    return type.startsWith('video/') ? 'video' : 'image';
  } catch {
    return 'image';
  }
}

export async function detectMediaKinds(urls: string[], opts: { fetchImpl?: typeof fetch; timeoutMs?: number } = {}): Promise<MediaKind[]> {
  return Promise.all(urls.map((url) => detectMediaKind(url, opts)));
}
