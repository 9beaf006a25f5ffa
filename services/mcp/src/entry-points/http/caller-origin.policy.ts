/**
 * Which hosts and browser origins the agent endpoints answer (DNS-rebinding protection, MCP
 * Streamable HTTP transport security). A page on evil.example whose name is made to resolve to
 * this server sends `Host: evil.example` and `Origin: http://evil.example`; both are refused.
 * Plain functions over header values, no HTTP.
 */
export interface CallerOriginPolicy {
  /** Host names (lower case, no port) the endpoints answer to. */
  hosts: ReadonlySet<string>;
  /** Browser origins (`scheme://host[:port]`, as URL.origin spells them) that may call them. */
  origins: ReadonlySet<string>;
  /** Outside production: localhost, 127.0.0.1 and [::1] on any port, as Host or Origin. */
  loopback: boolean;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
/** A Host header: a DNS name, an IPv4 address or a bracketed IPv6 address, then an optional port. Nothing else (no userinfo, no path). */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i;

/** The host name of a Host header value (or of a configured `name[:port]`), lower case; undefined when it is not one. */
export function hostNameOf(value: string | undefined): string | undefined {
  const match = value === undefined ? null : HOST_HEADER.exec(value.trim());
  return match ? match[1].toLowerCase().replace(/\.$/, '') : undefined;
}

/** Config parser: a host name, `:port` allowed and ignored. */
export function parseHostName(entry: string): string {
  const name = hostNameOf(entry);
  if (!name) throw new Error(`expected host names such as mcp.example.com, got ${entry}`);
  return name;
}

/** Config parser: an http(s) origin, normalised as browsers send it. */
export function parseOrigin(entry: string): string {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw new Error(`expected origins such as https://app.example.com, got ${entry}`);
  }
  if (
    !/^https?:$/.test(url.protocol) ||
    url.username ||
    url.password ||
    url.pathname !== '/' ||
    url.search ||
    url.hash
  ) {
    throw new Error(`expected an http(s) origin without path, got ${entry}`);
  }
  return url.origin;
}

export function buildCallerOriginPolicy(opts: {
  publicBaseUrl: string;
  extraHosts: string[];
  extraOrigins: string[];
  production: boolean;
}): CallerOriginPolicy {
  const base = new URL(opts.publicBaseUrl);
  return {
    hosts: new Set([base.hostname.toLowerCase(), ...opts.extraHosts]),
    origins: new Set([base.origin, ...opts.extraOrigins]),
    loopback: !opts.production,
  };
}

export function isAllowedHost(policy: CallerOriginPolicy, value: string | undefined): boolean {
  const name = hostNameOf(value);
  if (!name) return false;
  return policy.hosts.has(name) || (policy.loopback && LOOPBACK_NAMES.has(name));
}

/** `Origin: null` (sandboxed frames, file: pages, some redirects) names no origin we could allow: refused. */
export function isAllowedOrigin(policy: CallerOriginPolicy, value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  // Browsers send exactly scheme://host[:port]; anything else (a path, upper case, a default port) is no origin of theirs.
  if (url.origin !== value || !/^https?:$/.test(url.protocol)) return false;
  return policy.origins.has(value) || (policy.loopback && LOOPBACK_NAMES.has(url.hostname));
}
