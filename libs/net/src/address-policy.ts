import ipaddr from 'ipaddr.js';

/** Cloud instance metadata endpoints (AWS, GCP, Azure, Alibaba, Oracle), refused whatever range they fall in. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200', '168.63.129.16', '192.0.0.192']);

export interface AddressPolicy {
  /** Let loopback addresses through (tests and development only). */
  allowLoopback: boolean;
}

/**
 * Why an outbound request may not connect to this address, or undefined when it may. Only public
 * unicast addresses pass (loopback too when allowed): private, link-local, multicast, unspecified,
 * carrier-grade NAT, reserved and translation ranges and the cloud metadata addresses are refused.
 * An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is.
 */
export function refusedAddress(address: string, policy: AddressPolicy): string | undefined {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const ip = ipaddr.process(address);
  if (METADATA_ADDRESSES.has(ip.toNormalizedString()) || METADATA_ADDRESSES.has(ip.toString())) return 'a cloud metadata address';
  const range = ip.range();
  if (range === 'unicast') return undefined;
  if (range === 'loopback' && policy.allowLoopback) return undefined;
  return `a ${range.replace(/([A-Z])/g, ' $1').toLowerCase()} address`;
}
