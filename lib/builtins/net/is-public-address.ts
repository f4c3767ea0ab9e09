import * as net from 'node:net';
import * as ipaddr from 'ipaddr.js';

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Non-public IPv4 ranges (reference FU-4), checked on top of ipaddr.js `range()` as defence in depth. */
const IPV4_DENIED: readonly Cidr[] = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
].map((cidr) => ipaddr.parseCIDR(cidr));

/**
 * IPv6 ranges that ipaddr.js calls `unicast` or that older versions miss (IPv4-compatible `::/96` above
 * all), plus the rest of the reference FU-4 list.
 */
const IPV6_DENIED: readonly Cidr[] = [
  '::/96',
  '::ffff:0:0/96',
  '64:ff9b::/96',
  '64:ff9b:1::/48',
  '100::/64',
  '2001::/23',
  '2001:db8::/32',
  '2002::/16',
  '3fff::/20',
  '5f00::/16',
  'fc00::/7',
  'fe80::/10',
  'fec0::/10',
  'ff00::/8',
].map((cidr) => ipaddr.parseCIDR(cidr));

/** Only 2000::/3 is allocated as global unicast; everything outside it is refused. */
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/**
 * Says why an IP address is not public, or returns null when it is. Public means: a canonical IPv4 or
 * IPv6 address whose ipaddr.js `range()` is exactly `unicast` and that lies in no denied range (IPv6 must
 * also lie in 2000::/3). IPv6 forms that embed an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo)
 * are refused whatever they embed; the reason names the embedded IPv4 address.
 */
export function describeNonPublicAddress(address: string): string | null {
  // Scoped addresses (`fe80::1%eth0`) name a local interface: never public, whatever the address.
  if (net.isIP(address) === 0 || address.includes('%')) return 'not a valid IP address';
  // net.isIP accepts only canonical dotted quads and IPv6 text, so ipaddr's lenient IPv4 forms never reach here.
  const parsed = ipaddr.parse(address);
  const range = parsed.range();
  if (parsed.kind() === 'ipv4') {
    if (range !== 'unicast') return describeRange(range);
    return IPV4_DENIED.some((cidr) => parsed.match(cidr)) ? 'reserved' : null;
  }
  const ipv6 = parsed as ipaddr.IPv6;
  const embedded = findEmbeddedIpv4(ipv6);
  if (embedded !== null) {
    const inner = describeNonPublicAddress(embedded.ipv4);
    return `${embedded.form} embedding ${embedded.ipv4}${inner === null ? '' : ` (${inner})`}; IPv6 transition forms are never reached`;
  }
  if (range !== 'unicast') return describeRange(range);
  if (IPV6_DENIED.some((cidr) => ipv6.match(cidr)) || !ipv6.match(IPV6_GLOBAL_UNICAST)) return 'reserved';
  return null;
}

/** Whether an IP address is public (see {@link describeNonPublicAddress}). */
export function isPublicAddress(address: string): boolean {
  return describeNonPublicAddress(address) === null;
}

function describeRange(range: string): string {
  const names: Record<string, string> = {
    unspecified: 'unspecified',
    broadcast: 'broadcast',
    multicast: 'multicast',
    linkLocal: 'link-local',
    loopback: 'loopback',
    carrierGradeNat: 'carrier-grade NAT',
    private: 'private',
    uniqueLocal: 'unique-local (private)',
    benchmarking: 'benchmarking',
  };
  if (range === 'reserved') return 'reserved';
  return names[range] ?? `reserved (${range})`;
}

/** The IPv4 address inside an IPv4-mapped, IPv4-compatible, NAT64, 6to4 or Teredo IPv6 address. */
function findEmbeddedIpv4(address: ipaddr.IPv6): { form: string; ipv4: string } | null {
  const parts = address.parts;
  const low32 = (high: number, low: number): string =>
    [high >> 8, high & 0xff, low >> 8, low & 0xff].map(String).join('.');
  const firstFiveZero = parts.slice(0, 5).every((part) => part === 0);
  if (firstFiveZero && parts[5] === 0xffff)
    return { form: 'an IPv4-mapped address', ipv4: low32(parts[6], parts[7]) };
  if (firstFiveZero && parts[5] === 0 && (parts[6] !== 0 || parts[7] > 1)) {
    return { form: 'an IPv4-compatible address', ipv4: low32(parts[6], parts[7]) };
  }
  if (parts.slice(0, 4).every((part) => part === 0) && parts[4] === 0xffff && parts[5] === 0) {
    return { form: 'an IPv4-translated (SIIT) address', ipv4: low32(parts[6], parts[7]) };
  }
  if (parts[0] === 0x64 && parts[1] === 0xff9b)
    return { form: 'a NAT64 address', ipv4: low32(parts[6], parts[7]) };
  if (parts[0] === 0x2002) return { form: 'a 6to4 address', ipv4: low32(parts[1], parts[2]) };
  if (parts[0] === 0x2001 && parts[1] === 0) {
    return { form: 'a Teredo address', ipv4: low32(parts[6] ^ 0xffff, parts[7] ^ 0xffff) };
  }
  return null;
}
