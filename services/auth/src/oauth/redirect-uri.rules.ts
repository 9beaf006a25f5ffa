const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
/** Schemes that must never be a redirect target. */
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'about:', 'blob:']);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname);
}

function parse(uri: string): URL | undefined {
  try {
    return new URL(uri);
  } catch {
    return undefined;
  }
}

/**
 * Why a client may not register this redirect URI, or undefined when it may: https anywhere,
 * http only to loopback (RFC 8252 §7.3), or a private-use scheme in reverse-domain form
 * (`com.example.app:/callback`, RFC 8252 §7.1); never a fragment.
 */
export function refusedRedirectUri(uri: unknown): string | undefined {
  if (typeof uri !== 'string' || !uri) return 'a redirect URI must be a non-empty string';
  if (uri.length > 2000) return 'a redirect URI must be at most 2000 characters';
  const url = parse(uri);
  if (!url) return `${uri} is not an absolute URI`;
  if (url.hash || uri.includes('#')) return `${uri} must not have a fragment`;
  if (url.username || url.password) return `${uri} must not carry credentials`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:')
    return isLoopbackHost(url.hostname) ? undefined : `${uri} uses http on a host other than loopback; use https`;
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `${uri} uses a scheme that cannot be a redirect target`;
  return url.protocol.slice(0, -1).includes('.')
    ? undefined
    : `${uri} uses a private scheme that is not in reverse-domain form (e.g. com.example.app:/callback)`;
}

/**
 * Exact matching of a requested redirect URI against the registered ones; only a loopback http
 * URI may differ in its port (native apps listen on an ephemeral port, RFC 8252 §7.3).
 */
export function redirectUriMatches(requested: string, registered: readonly string[]): boolean {
  if (registered.includes(requested)) return true;
  const want = parse(requested);
  if (!want || want.protocol !== 'http:' || !isLoopbackHost(want.hostname)) return false;
  return registered.some((r) => {
    const have = parse(r);
    return (
      !!have &&
      have.protocol === 'http:' &&
      have.hostname === want.hostname &&
      have.pathname === want.pathname &&
      have.search === want.search &&
      !have.hash &&
      !want.hash &&
      !want.username &&
      !want.password
    );
  });
}

/** The host a person is sent back to, as the consent page names it. */
export function redirectHost(uri: string): string {
  const url = parse(uri);
  if (!url) return uri;
  return url.host || `${url.protocol}//`;
}
