/**
 * Why an outbound request did not happen or did not finish. `kind` is stable so callers can map
 * it to their own codes (a link import answers validation_error, a webhook records a failed attempt).
 */
export type NetErrorKind =
  /** Not http(s), credentials in the URL, or not a URL at all. */
  | 'invalid_url'
  /** The host is (or resolves only to) an address outside the public internet. */
  | 'refused_address'
  /** The host name does not resolve. */
  | 'unresolvable'
  /** The connection could not be made or broke off. */
  | 'connection_failed'
  /** A time limit passed (connecting, silence, or the whole exchange). */
  | 'timeout'
  /** More redirects than allowed. */
  | 'too_many_redirects'
  /** The response body is larger than allowed. */
  | 'too_large';

export class NetError extends Error {
  constructor(
    readonly kind: NetErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'NetError';
  }
}

export function isNetError(err: unknown): err is NetError {
  return err instanceof NetError;
}
