import type { Config } from '../config.js';

export type FastifyTrustProxy = boolean | string | ((address: string, hop: number) => boolean);

/**
 * Fastify's `trustProxy` for TRUST_PROXY. `true`, `false` and address/CIDR lists pass as they are.
 * A hop count is handed over as a function: Fastify 5.12 and later read a bare number as "trust
 * nothing" (it cannot check who the nearest peer is), which would quietly ignore the proxy. The
 * count trusts the nearest `n` hops whoever they are, so it suits a gateway that only its proxies
 * can reach; an address or CIDR list is the stricter choice.
 */
export function fastifyTrustProxy(value: Config['trustProxy']): FastifyTrustProxy {
  if (typeof value !== 'number') return value;
  const hops = value;
  return (_address, hop) => hop < hops;
}
