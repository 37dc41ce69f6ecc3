import type { Config } from '../config.js';

type TrustFunction = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY as Fastify's trustProxy. `true` trusts the one proxy in front and a number that
 * many hops: the client address is then the one the nearest untrusted hop presented, not the
 * left-most X-Forwarded-For entry a client may have written itself. (Fastify's own reading of
 * `true` takes that left-most entry, and of a hop count trusts no header at all.) Addresses and
 * CIDRs are Fastify's own.
 */
export function trustProxyOption(value: Config['trustProxy']): boolean | string | TrustFunction {
  if (value === false) return false;
  if (value === true) return (_address, hop) => hop < 1;
  if (typeof value === 'number') return value === 0 ? false : (_address, hop) => hop < value;
  return value;
}
