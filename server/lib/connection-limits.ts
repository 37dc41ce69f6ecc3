import { BlockList, isIP, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

/**
 * The peers the per-address cap does not count: the proxies TRUST_PROXY trusts, read as
 * trustProxyOption reads it. Behind such a proxy every browser arrives from the proxy's address,
 * so capping it would cap the whole console; the proxy is where a per-client limit belongs then
 * (nginx `limit_conn`). `true` or a hop count trusts whoever is directly in front, so every peer
 * is exempt: name the proxy's addresses instead to keep the cap for anything else that connects.
 */
export function exemptPeer(trustProxy: Config['trustProxy']): (address: string) => boolean {
  if (trustProxy === false || trustProxy === 0) return () => false;
  if (trustProxy === true || typeof trustProxy === 'number') return () => true;
  const trusted = new BlockList();
  for (const part of trustProxy.split(',').map((s) => s.trim())) {
    const [address, prefix] = part.split('/') as [string, string | undefined];
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) trusted.addAddress(address, family);
    else trusted.addSubnet(address, Number(prefix), family);
  }
  return (address) => {
    // An IPv4 client of a dual-stack listener shows as ::ffff:a.b.c.d; BlockList matches it
    // against IPv4 rules when asked as IPv6.
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    return trusted.check(address, family);
  };
}

/**
 * MAX_CONNECTIONS_PER_IP: one client address holds at most this many open sockets in this
 * process; the next is closed at once, as MAX_CONNECTIONS closes sockets past the total. Without
 * it, one address's idle or slow sockets could take all of MAX_CONNECTIONS, and nobody else (not
 * even a monitor's /healthz) would get in. Counted from the socket's address, never a header.
 */
export function capConnectionsPerAddress(app: FastifyInstance, config: Config): void {
  const max = config.maxConnectionsPerIp;
  const exempt = exemptPeer(config.trustProxy);
  const open = new Map<string, number>();
  app.server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || exempt(address)) return;
    const count = open.get(address) ?? 0;
    if (count >= max) {
      app.metrics.limited.inc({ limit: 'connections_per_address' });
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
