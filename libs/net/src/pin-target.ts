import { isIP } from 'node:net';
import { refusedAddress, type AddressPolicy } from './address-policy';
import { NetError } from './net-error';
import { systemResolver, type ResolvedAddress, type Resolver } from './resolver';

export interface TargetPolicy extends AddressPolicy {
  /** Defaults to the operating system's resolver. */
  resolve?: Resolver;
  /**
   * URLs of the caller's own services (signed file links of its own public base URL), which may
   * live on a private network: connected to wherever they resolve. Only the URL it vouches for
   * passes unjudged; every other one, a redirect from it included, is judged as usual.
   */
  trustedUrl?(url: URL): boolean;
}

/** Parses and checks the shape of an outbound URL: http or https, no credentials in it. */
export function parseTargetUrl(raw: string | URL): URL {
  let url: URL;
  try {
    url = typeof raw === 'string' ? new URL(raw) : raw;
  } catch {
    throw new NetError('invalid_url', 'not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new NetError('invalid_url', 'only http and https URLs are allowed');
  if (url.username || url.password) throw new NetError('invalid_url', 'URLs with credentials in them are not allowed');
  if (!url.hostname) throw new NetError('invalid_url', 'the URL has no host');
  return url;
}

/**
 * Resolves the URL's host once and answers the address to connect to: the first one the policy
 * lets through. Connecting to exactly this address (never resolving again) means a DNS answer that
 * changes in between cannot turn the request towards an address that was not judged.
 */
export async function pinTarget(raw: string | URL, policy: TargetPolicy): Promise<ResolvedAddress & { url: URL }> {
  const url = parseTargetUrl(raw);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const candidates: ResolvedAddress[] = isIP(host)
    ? [{ address: host, family: isIP(host) }]
    : await (policy.resolve ?? systemResolver)(host).catch(() => {
        throw new NetError('unresolvable', `the host name ${host} does not resolve`);
      });
  if (!candidates.length) throw new NetError('unresolvable', `the host name ${host} does not resolve`);
  if (policy.trustedUrl?.(url)) return { ...candidates[0], url };
  const reasons: string[] = [];
  for (const c of candidates) {
    const refused = refusedAddress(c.address, policy);
    if (!refused) return { ...c, url };
    reasons.push(refused);
  }
  throw new NetError('refused_address', `${host} is ${reasons[0]}; only public internet addresses may be reached`);
}
