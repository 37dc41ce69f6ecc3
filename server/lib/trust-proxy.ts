import { BlockList, isIP } from 'node:net';
import type { Config } from '../config.js';

type TrustFunction = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY as Fastify's trustProxy. `true` trusts the one proxy in front and a number that
 * many hops: the client address is then the one the nearest untrusted hop presented, not the
 * left-most X-Forwarded-For entry a client may have written itself. (Fastify's own reading of
 * `true` takes that left-most entry, and of a hop count trusts no header at all.)
 *
 * Addresses and CIDRs name the proxy in front, and take one hop only, as nginx's realip does
 * without recursion: when the connection comes from a listed address, the client is the last
 * X-Forwarded-For entry, the one that proxy wrote. Fastify's own reading walks further left past
 * every entry that falls in the list; but a client inside the listed network (any internal client,
 * with `10.0.0.0/8`) writes entries in that range itself, and could put any address before them.
 * A chain of several proxies is a hop count.
 */
export function trustProxyOption(value: Config['trustProxy']): boolean | TrustFunction {
  if (value === false) return false;
  if (value === true) return (_address, hop) => hop < 1;
  if (typeof value === 'number') return value === 0 ? false : (_address, hop) => hop < value;
  const proxies = proxyList(value);
  return (address, hop) => hop === 0 && isListed(proxies, address);
}

/** The comma-separated addresses and CIDRs of TRUST_PROXY (validated by config.ts). */
function proxyList(value: string): BlockList {
  const list = new BlockList();
  for (const part of value.split(',')) {
    const [address, prefix] = part.trim().split('/') as [string, string | undefined];
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

function isListed(list: BlockList, address: string): boolean {
  // A dual-stack socket reports an IPv4 peer as ::ffff:a.b.c.d.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return list.check(mapped[1]!, 'ipv4');
  const type = isIP(address);
  return type !== 0 && list.check(address, type === 6 ? 'ipv6' : 'ipv4');
}
