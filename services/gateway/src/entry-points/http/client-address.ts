import { isIPv6 } from 'node:net';
import type { Request } from 'express';

/** An IPv6 address written out in full, eight groups of four hex digits. */
function expandIPv6(ip: string): string[] {
  const [head, tail] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((g) => g.padStart(4, '0'));
}

/**
 * Who a request comes from, for per-address limits: the client address Express found (through
 * as many proxies as TRUST_PROXY_HOPS trusts, so a client cannot name itself in X-Forwarded-For),
 * an IPv4-mapped address as plain IPv4, and an IPv6 address by its /64, the block one subscriber
 * holds whole.
 */
export function clientAddress(req: Request): string {
  let ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  if (ip.startsWith('::ffff:') && ip.includes('.')) ip = ip.slice(7);
  const zone = ip.indexOf('%');
  if (zone >= 0) ip = ip.slice(0, zone);
  if (!isIPv6(ip)) return ip;
  return `${expandIPv6(ip).slice(0, 4).join(':')}::/64`;
}
