export interface ClientCredentials {
  clientId?: string;
  clientSecret?: string;
}

/** application/x-www-form-urlencoded decoding of one value: `+` is a space, then percent-decoding. */
function formDecoded(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}

/**
 * The client credentials of an HTTP Basic header. RFC 6749 §2.3.1 has the client form-encode its
 * id and secret before joining them with ':', so a strict client sends `_` as `%5F`; each part is
 * decoded (an id or secret without `%` or `+` reads the same either way). Answers undefined when
 * the header is not Basic, and no credentials when it cannot be read.
 */
export function basicCredentials(authorization: string | string[] | undefined): ClientCredentials | undefined {
  const basic = typeof authorization === 'string' ? authorization.match(/^Basic\s+(\S+)$/i) : null;
  if (!basic) return undefined;
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return {};
  try {
    return { clientId: formDecoded(decoded.slice(0, colon)), clientSecret: formDecoded(decoded.slice(colon + 1)) };
  } catch {
    return {};
  }
}
