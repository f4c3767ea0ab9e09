import { describeNonPublicAddress, isPublicAddress } from '../../../lib/builtins/net/is-public-address';

describe('isPublicAddress', () => {
  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '2606:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001:80b::200e',
  ])('accepts the public address %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
    expect(describeNonPublicAddress(address)).toBeNull();
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.20.0.1', 'private'],
    ['192.168.10.10', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.100.100.100', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.10', 'reserved'],
    ['198.18.5.5', 'reserved'],
    ['240.1.2.3', 'reserved'],
    ['192.31.196.1', 'reserved (as112)'],
    ['192.52.193.1', 'reserved (amt)'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::abcd', 'link-local'],
    ['fd00::1', 'unique-local (private)'],
    ['ff02::fb', 'multicast'],
    ['2001:db8::5', 'reserved'],
    ['2001:2::1', 'benchmarking'],
    ['3fff:1::1', 'reserved'],
    ['5f00::1', 'reserved (segmentRouting)'],
    ['fec0::1', 'reserved (deprecatedSiteLocal)'],
    ['100::1', 'reserved (discard)'],
    ['4000::1', 'reserved'],
    [
      '::ffff:127.0.0.1',
      'an IPv4-mapped address embedding 127.0.0.1 (loopback); IPv6 transition forms are never reached',
    ],
    ['::ffff:8.8.8.8', 'an IPv4-mapped address embedding 8.8.8.8; IPv6 transition forms are never reached'],
    [
      '::7f00:1',
      'an IPv4-compatible address embedding 127.0.0.1 (loopback); IPv6 transition forms are never reached',
    ],
    [
      '::ffff:0:a00:1',
      'an IPv4-translated (SIIT) address embedding 10.0.0.1 (private); IPv6 transition forms are never reached',
    ],
    [
      '64:ff9b::a9fe:a9fe',
      'a NAT64 address embedding 169.254.169.254 (link-local); IPv6 transition forms are never reached',
    ],
    [
      '64:ff9b:1::7f00:1',
      'a NAT64 address embedding 127.0.0.1 (loopback); IPv6 transition forms are never reached',
    ],
    [
      '2002:c0a8:101::',
      'a 6to4 address embedding 192.168.1.1 (private); IPv6 transition forms are never reached',
    ],
    [
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
      'a Teredo address embedding 127.0.0.1 (loopback); IPv6 transition forms are never reached',
    ],
    ['127.1', 'not a valid IP address'],
    ['0x7f000001', 'not a valid IP address'],
    ['', 'not a valid IP address'],
    ['fe80::1%eth0', 'not a valid IP address'],
    ['localhost', 'not a valid IP address'],
  ])('refuses %s as %s', (address, reason) => {
    expect(isPublicAddress(address)).toBe(false);
    expect(describeNonPublicAddress(address)).toBe(reason);
  });
});
