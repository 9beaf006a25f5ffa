export type ThreadsMediaKind = 'image' | 'video';

const VIDEO_EXTENSIONS = /\.(mp4|m4v|mov|webm|mkv|avi|mpe?g)$/i;

/**
 * Whether a media URL is a video or an image, from the extension of its path
 * (query strings such as signatures are ignored). An explicit kind wins.
 */
export function threadsMediaKindOf(url: string, explicit?: ThreadsMediaKind): ThreadsMediaKind {
  if (explicit) return explicit;
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // not an absolute URL: Threads will refuse it; guess from the raw string meanwhile
  }
  return VIDEO_EXTENSIONS.test(path) ? 'video' : 'image';
}

/** The container parameters for one image or video (`media_type` plus `image_url` or `video_url`). */
export function threadsMediaParams(url: string, kind: ThreadsMediaKind): Record<string, string> {
  return kind === 'video' ? { media_type: 'VIDEO', video_url: url } : { media_type: 'IMAGE', image_url: url };
}
