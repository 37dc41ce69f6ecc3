import 'fastify';
import type { Config } from './config.js';
import type { Metrics } from './lib/metrics.js';
import type { Upstream } from './lib/upstream.js';

/** The session as the gateway knows it: only what the cookies say. */
export interface Session {
  token: string;
  userId: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    metrics: Metrics;
    upstream: Upstream;
    /** True once SIGTERM has been received: new event streams are refused, open ones ended. */
    shuttingDown: boolean;
  }
  interface FastifyRequest {
    /** From the `token` and `userId` cookies; null without a session. Set by the session plugin. */
    session: Session | null;
  }
}
