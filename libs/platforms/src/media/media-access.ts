import { MEDIA_FILES_PATH, type Platform } from '@postbus/contracts';
import { isNetError, openSafeRequest, type Resolver, type SafeResponse } from '@postbus/net';
import { MEDIA_REDIRECTS_MAX, mediaNetFailure } from './media-errors';

/**
 * Which media links the publisher may read. A post's links are named by its author, so every
 * read goes through @postbus/net: http(s) only, the host resolved once and every address judged
 * (no private, link-local or metadata address; loopback only in development), each redirect
 * judged again.
 */
export interface MediaAccess {
  /** Let loopback addresses through (tests and development only). */
  allowLoopback: boolean;
  /** Our own signed file links, read wherever they resolve (see ownFileLinks). */
  trusted?: (url: URL) => boolean;
  /** Injected in tests to play DNS answers; the system resolver otherwise. */
  resolve?: Resolver;
}

export interface MediaLinkOptions {
  platform: Platform;
  access: MediaAccess;
  /** Deadline of the answer (resolving, connecting, redirects, headers); the body is the caller's to bound. */
  timeoutMs: number;
}

/**
 * `{base}/files/{id}` under one of our base URLs (PUBLIC_BASE_URL, media's own URL): the links
 * media signs for stored files. Exactly one path segment after /files/, so no other route of
 * ours can be reached through this door.
 */
export function ownFileLinks(baseUrls: string[]): (url: URL) => boolean {
  const prefixes = baseUrls.filter(Boolean).map((raw) => {
    const base = new URL(raw);
    return { origin: base.origin, path: `${base.pathname.replace(/\/+$/, '')}${MEDIA_FILES_PATH}/` };
  });
  return (url) =>
    prefixes.some(
      (p) =>
        url.origin === p.origin && url.pathname.startsWith(p.path) && /^[^/]+$/.test(url.pathname.slice(p.path.length)),
    );
}

/** A GET or HEAD of a media link through @postbus/net; its failures are PlatformErrors that name the source. */
export async function openMediaLink(
  url: string,
  init: { method: 'GET' | 'HEAD'; headers?: Record<string, string> },
  opts: MediaLinkOptions,
): Promise<SafeResponse> {
  try {
    return await openSafeRequest(url, {
      method: init.method,
      headers: { 'user-agent': 'PostbusPublisher/1.0', 'accept-encoding': 'identity', ...init.headers },
      allowLoopback: opts.access.allowLoopback,
      trustedUrl: opts.access.trusted,
      resolve: opts.access.resolve,
      maxRedirects: MEDIA_REDIRECTS_MAX,
      timeoutMs: opts.timeoutMs,
      timeoutCoversBody: false,
      // the reader watches each wait for the body itself; an upload may pause reading for as long as the platform takes
      idleTimeoutMs: 0,
    });
  } catch (err) {
    throw isNetError(err) ? mediaNetFailure(opts.platform, url, err) : err;
  }
}
