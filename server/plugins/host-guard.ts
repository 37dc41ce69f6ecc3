import fp from 'fastify-plugin';
import { GATEWAY_PATHS } from '../contract/index.js';
import { parseHost, type AllowedHost } from '../config.js';
import { errorBody } from '../errors.js';
import { pathOf } from '../lib/request-path.js';

/**
 * Probes name the gateway by its address (`Host: 10.0.0.5:8080`), not by the console's name, and
 * their answers hold nothing a page on another origin could use.
 */
const ANY_HOST_PATHS = new Set<string>([GATEWAY_PATHS.healthz, GATEWAY_PATHS.readyz]);

/** Whether `host` (a request's) is one of `allowed`; an entry without a port takes any port. */
export function hostAllowed(host: string, allowed: readonly AllowedHost[]): boolean {
  const parsed = parseHost(host);
  if (!parsed) return false;
  return allowed.some(
    (entry) => entry.hostname === parsed.hostname && (entry.port === null || entry.port === parsed.port),
  );
}

/**
 * DNS rebinding: a page on an attacker's name that later resolves to the console's address is
 * same-origin with itself, so its Origin matches its Host and the same-origin rule lets it log in
 * and call. Only the Host tells the two apart. With ALLOWED_HOSTS set, a request for any other
 * name is refused with 421 before the session is read or anything is proxied.
 */
export default fp(
  async (app) => {
    const allowed = app.config.allowedHosts;
    if (allowed === null) {
      // A console in front of a real backend is a production one: say what the default leaves open.
      if (app.config.chatBackendUrl !== null || process.env.NODE_ENV === 'production') {
        app.log.warn(
          'ALLOWED_HOSTS is not set: the console answers for any host name, which leaves it open to DNS rebinding. Set it to the names the console is reached by.',
        );
      }
      return;
    }
    app.addHook('onRequest', async (request, reply) => {
      if (ANY_HOST_PATHS.has(pathOf(request.url))) return;
      // request.host is X-Forwarded-Host when TRUST_PROXY trusts the sender: the name the browser used.
      if (hostAllowed(request.host, allowed)) return;
      request.log.warn({ host: request.host.slice(0, 256) }, 'refused a request for a host name not in ALLOWED_HOSTS');
      return reply.code(421).send(errorBody('MISDIRECTED_REQUEST'));
    });
  },
  { name: 'host-guard', dependencies: ['security'] },
);
