import { BlockList } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Cloud instance metadata endpoints (AWS, GCP, Azure, Alibaba, Oracle), refused whatever range they fall in. */
const METADATA_ADDRESSES = new Set([
  '169.254.169.254',
  'fd00:ec2::254',
  '100.100.100.200',
  '168.63.129.16',
  '192.0.0.192',
]);

/**
 * IPv4-compatible IPv6 addresses (::/96 but :: and ::1, deprecated by RFC 4291): some stacks
 * route ::10.0.0.1 to 10.0.0.1, and ipaddr.js reads ::8.8.8.8 as an IPv4-mapped address.
 */
const IPV4_COMPATIBLE = new BlockList();
IPV4_COMPATIBLE.addSubnet('::', 96, 'ipv6');
const UNSPECIFIED_OR_LOOPBACK = new BlockList();
UNSPECIFIED_OR_LOOPBACK.addSubnet('::', 127, 'ipv6');

export interface AddressPolicy {
  /** Let loopback addresses through (tests and development only). */
  allowLoopback: boolean;
}

/**
 * Why an outbound request may not connect to this address, or undefined when it may. Only public
 * unicast addresses pass (loopback too when allowed): private, link-local, multicast, unspecified,
 * carrier-grade NAT, reserved and translation ranges and the cloud metadata addresses are refused.
 * An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is; the
 * deprecated IPv4-compatible form (::10.0.0.1, ::/96) is refused whatever it embeds.
 */
export function refusedAddress(address: string, policy: AddressPolicy): string | undefined {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  if (
    address.includes(':') &&
    IPV4_COMPATIBLE.check(address, 'ipv6') &&
    !UNSPECIFIED_OR_LOOPBACK.check(address, 'ipv6')
  )
    return 'a deprecated IPv4-compatible IPv6 address';
  const ip = ipaddr.process(address);
  if (METADATA_ADDRESSES.has(ip.toNormalizedString()) || METADATA_ADDRESSES.has(ip.toString()))
    return 'a cloud metadata address';
  const range = ip.range();
  if (range === 'unicast') return undefined;
  if (range === 'loopback' && policy.allowLoopback) return undefined;
  return `a ${range.replace(/([A-Z])/g, ' $1').toLowerCase()} address`;
}
