import { BlockList, isIP } from 'node:net';

/**
 * Which addresses a customer's webhook may reach (SSRF safety). Refused: loopback, private
 * (RFC 1918, unique-local, carrier-grade NAT), link-local (cloud metadata at 169.254.169.254),
 * unspecified, multicast, reserved and documentation ranges — unless the operator's allow list
 * (WEBHOOK_ALLOW_NETWORKS, CIDRs) names the address. IPv4-mapped IPv6 is judged as its IPv4.
 */
const REFUSED: [string, number, 'ipv4' | 'ipv6', string][] = [
  ['0.0.0.0', 8, 'ipv4', 'unspecified'],
  ['10.0.0.0', 8, 'ipv4', 'private'],
  ['100.64.0.0', 10, 'ipv4', 'private'],
  ['127.0.0.0', 8, 'ipv4', 'loopback'],
  ['169.254.0.0', 16, 'ipv4', 'link-local'],
  ['172.16.0.0', 12, 'ipv4', 'private'],
  ['192.0.0.0', 24, 'ipv4', 'reserved'],
  ['192.0.2.0', 24, 'ipv4', 'reserved'],
  ['192.168.0.0', 16, 'ipv4', 'private'],
  ['198.18.0.0', 15, 'ipv4', 'reserved'],
  ['198.51.100.0', 24, 'ipv4', 'reserved'],
  ['203.0.113.0', 24, 'ipv4', 'reserved'],
  ['224.0.0.0', 4, 'ipv4', 'multicast'],
  ['240.0.0.0', 4, 'ipv4', 'reserved'],
  ['::', 128, 'ipv6', 'unspecified'],
  ['::1', 128, 'ipv6', 'loopback'],
  ['64:ff9b::', 96, 'ipv6', 'reserved'],
  ['100::', 64, 'ipv6', 'reserved'],
  ['2001:db8::', 32, 'ipv6', 'reserved'],
  ['fc00::', 7, 'ipv6', 'private'],
  ['fe80::', 10, 'ipv6', 'link-local'],
  ['fec0::', 10, 'ipv6', 'private'],
  ['ff00::', 8, 'ipv6', 'multicast'],
];

export type AddressPolicy = {
  /** Why `address` may not be reached ("loopback", "link-local", ...), or null when it may. */
  refusal(address: string): string | null;
};

/** Parses "a.b.c.d/n, x::/n" (bare addresses are /32 or /128); throws naming a bad entry. */
export function parseNetworks(list: string): [string, number, 'ipv4' | 'ipv6'][] {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((cidr) => {
      const [addr = '', bits] = cidr.split('/');
      const family = isIP(addr);
      const max = family === 4 ? 32 : 128;
      const prefix = bits === undefined ? max : Number(bits);
      if (!family || !Number.isInteger(prefix) || prefix < 0 || prefix > max || (bits !== undefined && !/^\d+$/.test(bits)))
        throw new Error(`not a network: ${cidr}`);
      return [addr, prefix, family === 4 ? 'ipv4' : 'ipv6'];
    });
}

/** The policy with the operator's allow list (CIDRs that may be reached although refused above). */
export function addressPolicy(allow: string = ''): AddressPolicy {
  const allowed = new BlockList();
  for (const [a, p, f] of parseNetworks(allow)) allowed.addSubnet(a, p, f);
  const lists = REFUSED.map(([a, p, f, why]) => {
    const b = new BlockList();
    b.addSubnet(a, p, f);
    return { b, why };
  });
  return {
    refusal(address: string) {
      const family = isIP(address);
      if (!family) return 'not an IP address';
      const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
      const [addr, type] = mapped ? [mapped, 'ipv4' as const] : [address, family === 4 ? ('ipv4' as const) : ('ipv6' as const)];
      if (allowed.check(addr, type)) return null;
      for (const { b, why } of lists) if (b.check(addr, type)) return why;
      return null;
    },
  };
}
