import { refusedAddress } from '../src';

const refused = [
  ['127.0.0.1', 'loopback'],
  ['127.9.9.9', 'loopback'],
  ['::1', 'loopback'],
  ['10.0.0.5', 'private'],
  ['172.16.0.1', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'cloud metadata'],
  ['fd00:ec2::254', 'cloud metadata'],
  ['100.100.100.200', 'cloud metadata'],
  ['169.254.10.10', 'link local'],
  ['fe80::1', 'link local'],
  ['fc00::1', 'unique local'],
  ['0.0.0.0', 'unspecified'],
  ['::', 'unspecified'],
  ['224.0.0.1', 'multicast'],
  ['ff02::1', 'multicast'],
  ['100.64.0.1', 'carrier grade nat'],
  ['255.255.255.255', 'broadcast'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:10.1.2.3', 'private'],
  ['::ffff:169.254.169.254', 'cloud metadata'],
  ['::8.8.8.8', 'deprecated IPv4-compatible IPv6'],
  ['::808:808', 'deprecated IPv4-compatible IPv6'],
  ['::10.0.0.1', 'deprecated IPv4-compatible IPv6'],
  ['::127.0.0.1', 'deprecated IPv4-compatible IPv6'],
  ['0:0:0:0:0:0:5db8:d822', 'deprecated IPv4-compatible IPv6'],
] as const;

describe('address policy', () => {
  test.each(refused)('when the address is %s, then it is refused as %s', (address, why) => {
    expect(refusedAddress(address, { allowLoopback: false })).toBe(`a ${why} address`);
  });

  test.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'when the address %s is public, then it passes',
    (address) => {
      expect(refusedAddress(address, { allowLoopback: false })).toBeUndefined();
    },
  );

  test('when loopback is allowed, then only loopback opens: private and metadata addresses stay refused', () => {
    expect(refusedAddress('127.0.0.1', { allowLoopback: true })).toBeUndefined();
    expect(refusedAddress('::1', { allowLoopback: true })).toBeUndefined();
    expect(refusedAddress('10.0.0.1', { allowLoopback: true })).toBe('a private address');
    expect(refusedAddress('169.254.169.254', { allowLoopback: true })).toBe('a cloud metadata address');
  });

  test('when the text is not an address, then it is refused', () => {
    expect(refusedAddress('example.com', { allowLoopback: true })).toBe('not an IP address');
  });
});
