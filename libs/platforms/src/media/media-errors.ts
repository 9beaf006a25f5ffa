import type { Platform } from '@postbus/contracts';
import type { NetError } from '@postbus/net';
import { PlatformError, isPlatformError } from '../errors';

/**
 * Why a post's media could not be read from its link. Each reason names the source, never the
 * platform: the bytes did not leave Postbus, so an upload they were meant for is unfinished.
 * A refused link names no host or status (a reason must not describe the inside of a network).
 */

/** Redirects a media link may take, each one judged again. */
export const MEDIA_REDIRECTS_MAX = 3;

export const MEDIA_URL_REFUSED_REASON =
  'The media link points at an address Postbus does not fetch from (only public http and https links are read); link to the file on a public host, or upload it with the media endpoints.';

const MEDIA_READ_CODES = new Set([
  'media_url_refused',
  'media_unreadable',
  'media_unreachable',
  'media_stalled',
  'media_short_read',
  'media_size_unknown',
]);

/** True when reading the post's own media failed (as opposed to a call to the platform). */
export function isMediaReadError(err: unknown): err is PlatformError {
  return isPlatformError(err) && typeof err.code === 'string' && MEDIA_READ_CODES.has(err.code);
}

/** A network failure reading the media, in words a person can act on. */
export function mediaNetFailure(platform: Platform, url: string, err: NetError): PlatformError {
  const fail = (message: string, transient: boolean, code: string) =>
    new PlatformError(message, { platform, transient, code, cause: err });
  switch (err.kind) {
    case 'invalid_url':
    case 'refused_address':
      return fail(MEDIA_URL_REFUSED_REASON, false, 'media_url_refused');
    case 'too_many_redirects':
      return fail(
        `The media could not be read: the link redirected more than ${MEDIA_REDIRECTS_MAX} times; link to the file itself, or upload it with the media endpoints.`,
        false,
        'media_unreadable',
      );
    case 'unresolvable':
      return fail(
        "The media could not be read: the link's host name does not resolve; publishing will be tried again.",
        true,
        'media_unreachable',
      );
    case 'timeout':
      return fail(
        `The media could not be read: ${hostOf(url)} did not answer in time; publishing will be tried again.`,
        true,
        'media_unreachable',
      );
    default:
      return fail(
        `The media could not be read: the connection to ${hostOf(url)} failed; publishing will be tried again.`,
        true,
        'media_unreachable',
      );
  }
}

/** The media's host answered with an error status: 429 and 5xx may pass, anything else will not. */
export function unreadableMedia(platform: Platform, url: string, status: number): PlatformError {
  const transient = status === 429 || status >= 500;
  return new PlatformError(
    transient
      ? `The media could not be read: ${hostOf(url)} answered HTTP ${status}; publishing will be tried again.`
      : `The media could not be read: ${hostOf(url)} answered HTTP ${status}; make sure the link is public and points at the file itself, or upload the file with the media endpoints.`,
    { platform, transient, code: 'media_unreadable', status },
  );
}

/** Host only: media URLs may be signed, and their query strings must not reach logs or reasons. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the media link';
  }
}
