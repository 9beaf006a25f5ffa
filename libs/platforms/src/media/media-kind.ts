import { openMediaLink } from './media-access';
import type { MediaFetchOptions } from './media-source';

export type MediaKind = 'image' | 'video';

const VIDEO_EXTENSIONS = /\.(mp4|m4v|mov|qt|webm|mkv|avi|mpe?g|3gp)$/i;
const IMAGE_EXTENSIONS = /\.(jpe?g|png|gif|webp|heic|heif|bmp|tiff?)$/i;

/** HEAD requests one post sends at once, however many items it has. */
export const MEDIA_KIND_PARALLEL_HEADS = 4;

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
 * When neither tells, an image is assumed and the platform has the last word. A link Postbus
 * does not fetch from fails (media_url_refused) rather than being guessed at.
 */
export async function detectMediaKind(url: string, opts: MediaFetchOptions): Promise<MediaKind> {
  const fromUrl = mediaKindFromUrl(url);
  if (fromUrl) return fromUrl;
  try {
    const res = await openMediaLink(url, { method: 'HEAD' }, { ...opts, timeoutMs: opts.timeoutMs ?? 10_000 });
    res.body.destroy();
    return String(res.headers['content-type'] ?? '').startsWith('video/') ? 'video' : 'image';
  } catch (err) {
    if ((err as { code?: unknown }).code === 'media_url_refused') throw err;
    return 'image';
  }
}

/** The kind of each link, in order, with at most MEDIA_KIND_PARALLEL_HEADS requests in flight. */
export async function detectMediaKinds(urls: string[], opts: MediaFetchOptions): Promise<MediaKind[]> {
  const kinds: MediaKind[] = new Array<MediaKind>(urls.length);
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const i = next++;
      kinds[i] = await detectMediaKind(urls[i], opts).catch((err: unknown) => {
        next = urls.length; // one refused link fails the post: ask nothing more
        throw err;
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(MEDIA_KIND_PARALLEL_HEADS, urls.length) }, worker));
  return kinds;
}
