import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** MAX_INFLIGHT_PER_SESSION: how many calls of one session may wait on the backend at once. */
    sessionCalls: SessionCalls;
  }
}

export interface SessionCalls {
  /**
   * preHandler hook (the session was required on request): takes one of the session's slots, or
   * answers 429 RATE_LIMITED (with Retry-After) without any backend call. Taken once the request
   * has arrived, as the backend call starts only then: a body still arriving holds a socket (the
   * request time-out's business), not a backend connection.
   */
  limit(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void>;
  /** The request's backend call has been sent: its slot is held until the backend has answered. */
  backendStarted(request: FastifyRequest): void;
  /** The backend answered (its headers) or failed: that half of the slot is free. */
  backendEnded(request: FastifyRequest): void;
  /** Runs the request's backend call between backendStarted and backendEnded. */
  around<T>(request: FastifyRequest, call: () => Promise<T>): Promise<T>;
}

/** One request's slot: free once the browser's answer is closed and no backend call is pending. */
interface Slot {
  answerOpen: boolean;
  backendPending: boolean;
  release(): void;
}

/**
 * The backend's connection pool is shared by every session; one session's slow calls (140 of
 * them, say) would fill it and make everyone else's calls, logins included, wait behind them.
 * Each session may have MAX_INFLIGHT_PER_SESSION calls in flight in this process; the next is
 * refused at once. A slot is held until the browser's answer is over and, when the browser went
 * away first, until the backend has answered too (the proxy does not cancel a call the browser
 * abandoned), so hanging up and asking again gains nothing.
 */
export default fp(
  async (app) => {
    const max = app.config.maxInflightPerSession;
    const inFlight = new Map<string, number>();
    const slots = new WeakMap<FastifyRequest, Slot>();

    const settle = (slot: Slot) => {
      if (!slot.answerOpen && !slot.backendPending) slot.release();
    };

    const service: SessionCalls = {
      async limit(request, reply) {
        const id = request.session?.id;
        if (id === undefined) return;
        const count = inFlight.get(id) ?? 0;
        if (count >= max) {
          app.metrics.limited.inc({ limit: 'inflight_per_session' });
          reply.header('retry-after', '1');
          return reply
            .code(429)
            .send(
              errorBody(
                'RATE_LIMITED',
                `${errorBody('RATE_LIMITED').msg}: this session already has ${max} calls waiting on the chat backend`,
              ),
            );
        }
        inFlight.set(id, count + 1);
        let released = false;
        const slot: Slot = {
          answerOpen: true,
          backendPending: false,
          release() {
            if (released) return;
            released = true;
            const left = (inFlight.get(id) ?? 1) - 1;
            if (left <= 0) inFlight.delete(id);
            else inFlight.set(id, left);
          },
        };
        slots.set(request, slot);
        // 'close' comes once, whether the answer was sent in full or the browser hung up.
        reply.raw.once('close', () => {
          slot.answerOpen = false;
          settle(slot);
        });
      },
      backendStarted(request) {
        const slot = slots.get(request);
        if (slot) slot.backendPending = true;
      },
      backendEnded(request) {
        const slot = slots.get(request);
        if (!slot) return;
        slot.backendPending = false;
        settle(slot);
      },
      async around(request, call) {
        service.backendStarted(request);
        try {
          return await call();
        } finally {
          service.backendEnded(request);
        }
      },
    };
    app.decorate('sessionCalls', service);
  },
  { name: 'session-calls', dependencies: ['session'] },
);
