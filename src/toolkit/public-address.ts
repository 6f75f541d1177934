/**
 * Connecting only to public addresses, for requests to URLs users give (avatar pictures,
 * webhooks): the addresses a host name resolves to are checked where the connection is made, so a
 * name that answers a public address to a check and a private one to the connection gains nothing.
 */
import dns from 'node:dns';
import net from 'node:net';

/** Addresses nothing public lives at: this machine, its networks, and the ranges reserved for neither. */
const NOT_PUBLIC = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

export function isPublicAddress(address: string): boolean {
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 one it is.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return isPublicAddress(mapped);
  const family = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : null;
  return family !== null && !NOT_PUBLIC.check(address, family);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** The code of the lookup error guardedLookup answers for a host on no public address. */
export const NOT_PUBLIC_CODE = 'EPRIVATE';

/** dns.lookup for http(s).request's `lookup` option that answers only the addresses allowed; the connection uses what it answers. */
export function guardedLookup(privateAddresses: boolean) {
  return (hostname: string, lookupOptions: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const allowed = addresses.filter((entry) => privateAddresses || isPublicAddress(entry.address));
      if (allowed.length === 0) return callback(Object.assign(new Error(`${hostname} is not on a public address`), { code: NOT_PUBLIC_CODE }), '');
      if (lookupOptions.all) return callback(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

/** A URL whose host is a literal address is connected to without a lookup: whether it may be, or why not. */
export function literalHostProblem(url: URL, privateAddresses: boolean): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return net.isIP(host) && !privateAddresses && !isPublicAddress(host) ? `${host} is not a public address` : null;
}
