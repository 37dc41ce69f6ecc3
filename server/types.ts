import 'fastify';
import type { Config } from './config.js';
import type { Metrics } from './lib/metrics.js';
import type { Upstream } from './lib/upstream.js';

/** The session as the gateway knows it: what its sealed `token` cookie holds. */
export interface Session {
  /** The backend's token, sent as w-token. */
  token: string;
  /** The backend's user id, sent as w-userId. */
  userId: string;
  /** Random id of this login: what logout revokes, what event streams are counted by. */
  id: string;
  /** Login time, epoch ms. */
  issuedAt: number;
  /** Last call seen, epoch ms, to about a minute. */
  lastSeen: number;
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
    /** From the sealed `token` cookie, when it opens and is neither expired nor revoked; else null. Set by the session plugin. */
    session: Session | null;
  }
}
