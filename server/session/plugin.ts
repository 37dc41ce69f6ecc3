import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { COOKIE_TOKEN, COOKIE_USER_ID, GATEWAY_PATHS, SESSION_NAME, type SessionInfo } from '../contract/index.js';
import { GatewayError } from '../errors.js';
import { offersOwnCall } from '../backend-map/own-calls.js';
import { areaOf, pathOf } from '../lib/request-path.js';
import type { PrimaryChannel } from '../cluster/ipc.js';
import { ClusterRevocations } from './cluster.js';
import { MemoryRevocations, type RevocationStore } from './revocations.js';
import { SessionSealer, newSessionId } from './seal.js';
import { RedisRevocations } from './redis-store.js';

/** The session as the gateway knows it: what its sealed `token` cookie holds. */
export interface Session {
  /** The backend's token, sent as w-token (or as the backend map's auth says). */
  token: string;
  /** The backend's user id, sent as w-userId (or as the backend map's auth says). */
  userId: string;
  /** Random id of this login: what logout revokes, what event streams are counted by. */
  id: string;
  /** Login time, epoch ms. */
  issuedAt: number;
  /** Last call seen, epoch ms, to about a minute. */
  lastSeen: number;
  /** The login answer's values a backend map keeps (auth.login.answer.keep): for permissions and signers. */
  kept?: Readonly<Record<string, string>>;
  /** The account typed at login (trimmed): who the audit trail names beside the user id, and the error log names where the id says nothing. */
  account?: string;
}

/** Why a `token` cookie was not taken as a session. */
export type SessionRefusal = 'unsealed' | 'expired' | 'idle' | 'revoked' | 'ambiguous';

export interface SessionService {
  /** Starts a session for a token the backend just gave: seals it into `token` and sets `userId`. */
  open(
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    userId: string,
    kept?: Readonly<Record<string, string>>,
    account?: string,
  ): Session;
  /** Ends the request's session, if any: revokes its id everywhere and clears both cookies. */
  end(request: FastifyRequest, reply: FastifyReply): Promise<Session | null>;
  clearCookies(request: FastifyRequest, reply: FastifyReply): void;
  /** A route hook: 401 NOT_LOGGED_IN unless the request carries a valid session. */
  require(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  isRevoked(session: Session): Promise<boolean>;
  /** Hears of every revoked session id, this process's and other workers' alike. */
  onRevoked(listener: (id: string) => void): () => void;
  /**
   * Hears of every rise of the revocation floor: each session whose expiresAt() is no later than
   * `floor` is refused from now on (the cap on remembered logouts, failing closed).
   */
  onFloorRaised(listener: (floor: number) => void): () => void;
  /** When the session is refused whatever its use (SESSION_MAX_HOURS after login), epoch ms. */
  expiresAt(session: Session): number;
  now(): number;
}

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionService;
  }
  interface FastifyRequest {
    /** From the sealed `token` cookie, when it opens and is neither expired nor revoked; else null. */
    session: Session | null;
    /** Why the request's `token` cookie was refused; null when it had none or it was taken. */
    sessionRefusal: SessionRefusal | null;
  }
}

export interface SessionPluginOptions {
  sandbox: boolean;
  /** Clock of session ages, for tests. */
  now?: () => number;
  /** Where revocations live; default: in memory, or the primary's list in a cluster worker. */
  revocations?: RevocationStore;
  /** In a cluster worker: the primary, which keeps the revocations of every worker. */
  primary?: PrimaryChannel | null;
}

/** A cookie value we would forward as a header: printable ASCII, bounded. */
export const COOKIE_VALUE = /^[\x21-\x7e]{1,1024}$/;
/**
 * The values of every cookie named `name` a Cookie header carries. The cookie parser keeps the first of a
 * name, and a browser sends the cookie of the longest path first: a cookie planted for a deeper
 * path (by a sibling subdomain or a script on a shared parent domain) would be read instead of
 * the one this gateway set, so two of them mean "cannot tell whose session this is".
 */
export function cookieValues(header: string | string[] | undefined, name: string): string[] {
  if (header === undefined) return [];
  const values: string[] = [];
  for (const line of Array.isArray(header) ? header : [header]) {
    for (const pair of line.split(';')) {
      const eq = pair.indexOf('=');
      if (eq >= 0 && pair.slice(0, eq).trim() === name) values.push(pair.slice(eq + 1).trim());
    }
  }
  return values;
}

/**
 * What a request with two session cookies may still do: ask whether it is logged in (no, so the
 * UI shows the login page) and log out (which ends every session among them).
 */
function answersWithoutSession(method: string, path: string): boolean {
  return (method === 'GET' && path === GATEWAY_PATHS.session) || (method === 'POST' && path === GATEWAY_PATHS.logout);
}

/** last-seen is re-sealed at most this often, so an active session costs one Set-Cookie a minute. */
const REFRESH_AFTER_MS = 60_000;

/**
 * Who is calling. The session is the sealed `token` cookie: the backend's token and user id,
 * a random session id and its login and last-call times, authenticated under SESSION_SECRET, so
 * a cookie the gateway did not issue is refused without asking the backend. Idle and old sessions
 * are refused by their own times; a logout revokes the session id until the cookie's maximum age.
 * The `userId` cookie is still set for compatibility but never trusted.
 */
export default fp<SessionPluginOptions>(
  async (app, options) => {
    await app.register(cookie);
    const now = options.now ?? Date.now;
    const { sessionIdleMinutes, sessionMaxHours } = app.config;
    const idleMs = sessionIdleMinutes * 60_000;
    const maxMs = sessionMaxHours * 3_600_000;
    const sealer = new SessionSealer(app.config.sessionSecret);

    let revocations = options.revocations;
    const maxEntries = app.config.revocationsMax;
    if (!revocations && app.redis) revocations = new RedisRevocations(app.redis, now, maxEntries);
    if (!revocations) {
      const channel = options.primary ?? null;
      if (channel) {
        const cluster = new ClusterRevocations(channel, now, maxEntries);
        await cluster.open();
        revocations = cluster;
      } else {
        revocations = new MemoryRevocations({ now, maxEntries });
      }
    }
    const store = revocations;
    app.addHook('onClose', async () => {
      await store.close();
    });

    if (app.config.sessionSecretGenerated && !options.primary) {
      app.log.warn(
        'SESSION_SECRET is not set: a random one was made for this process. Sessions end when it restarts, and replicas behind one load balancer must share one SESSION_SECRET.',
      );
    }

    const cookieOptions = (request: FastifyRequest) => ({
      httpOnly: true,
      sameSite: 'strict' as const,
      path: '/',
      secure: app.config.cookieSecure === 'auto' ? request.protocol === 'https' : app.config.cookieSecure,
    });

    const clearCookies = (request: FastifyRequest, reply: FastifyReply) => {
      const options = cookieOptions(request);
      reply.clearCookie(COOKIE_TOKEN, options);
      reply.clearCookie(COOKIE_USER_ID, options);
    };

    const expiresAt = (session: Session) => session.issuedAt + maxMs;

    async function readSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      if (cookieValues(request.headers.cookie, COOKIE_TOKEN).length > 1) {
        request.sessionRefusal = 'ambiguous';
        request.log.info('refused a request carrying two session cookies');
        const path = pathOf(request.url);
        // Every call a session could authorise is refused before it reaches the backend; the UI
        // and static files still load (without a session, so a navigation goes to the login).
        const area = areaOf(path);
        if ((area === 'manage' || area === 'api') && !answersWithoutSession(request.method, path)) {
          throw new GatewayError('NOT_LOGGED_IN', 'the request carries more than one session cookie');
        }
        return;
      }
      const value = request.cookies[COOKIE_TOKEN];
      if (!value) return;
      const session = sealer.unseal(value);
      const at = now();
      let refusal: SessionRefusal | null = null;
      if (!session) refusal = 'unsealed';
      else if (at >= expiresAt(session)) refusal = 'expired';
      else if (at - session.lastSeen >= idleMs) refusal = 'idle';
      else if (await store.isRevoked(session.id, expiresAt(session))) refusal = 'revoked';
      if (refusal !== null || !session) {
        request.sessionRefusal = refusal;
        // The reason, never the value: the cookie holds the backend's token.
        request.log.debug({ reason: refusal }, 'refused a session cookie');
        return;
      }
      request.session = session;
      if (at - session.lastSeen >= REFRESH_AFTER_MS) {
        reply.setCookie(COOKIE_TOKEN, sealer.seal({ ...session, lastSeen: at }), cookieOptions(request));
      }
    }

    app.decorateRequest('session', null);
    app.decorateRequest('sessionRefusal', null);
    app.addHook('onRequest', readSession);

    const service: SessionService = {
      open(request, reply, token, userId, kept, account) {
        const at = now();
        const session: Session = {
          token,
          userId,
          id: newSessionId(),
          issuedAt: at,
          lastSeen: at,
          ...(kept ? { kept } : {}),
          ...(account !== undefined ? { account } : {}),
        };
        reply.setCookie(COOKIE_TOKEN, sealer.seal(session), cookieOptions(request));
        reply.setCookie(COOKIE_USER_ID, userId, cookieOptions(request));
        return session;
      },
      async end(request, reply) {
        clearCookies(request, reply);
        if (request.sessionRefusal === 'ambiguous') {
          // Clearing removes only the cookie this gateway set; the planted one would then be the
          // browser's only session. Every session among them ends instead, the planted one too.
          for (const value of cookieValues(request.headers.cookie, COOKIE_TOKEN)) {
            const planted = sealer.unseal(value);
            if (planted) await store.revoke(planted.id, expiresAt(planted));
          }
          return null;
        }
        const session = request.session;
        if (!session) return null;
        await store.revoke(session.id, expiresAt(session));
        request.session = null;
        request.sessionRefusal = 'revoked';
        return session;
      },
      clearCookies,
      async require(request) {
        if (!request.session) throw new GatewayError('NOT_LOGGED_IN');
      },
      isRevoked: (session) => store.isRevoked(session.id, expiresAt(session)),
      onRevoked: (listener) => store.subscribe(listener),
      onFloorRaised: (listener) => store.subscribeFloor(listener),
      expiresAt,
      now,
    };
    app.decorate('sessions', service);

    // Told before login, as the site configuration is read: a backend without it is never asked.
    const siteConfigOffered = offersOwnCall(app.config.backendMap?.map, 'siteConfig');
    app.get(
      GATEWAY_PATHS.session,
      {
        schema: {
          response: {
            200: {
              type: 'object',
              required: [
                'loggedIn',
                'userId',
                'name',
                'sandbox',
                'webClientUrl',
                'sandboxDialect',
                'currency',
                'siteConfigOffered',
              ],
              properties: {
                loggedIn: { type: 'boolean' },
                userId: { type: ['string', 'null'] },
                name: { type: 'string' },
                sandbox: { type: 'boolean' },
                webClientUrl: { type: ['string', 'null'] },
                sandboxDialect: { type: ['string', 'null'] },
                currency: { type: 'string' },
                siteConfigOffered: { type: 'boolean' },
              },
            },
          },
        },
      },
      async (request, reply): Promise<SessionInfo> => {
        // The UI asks this first when a page loads: a refused cookie is dropped here, where no
        // other call of the same page can race a login that sets a new one. Of two cookies, the
        // one cleared would be ours, leaving the planted one alone: both stay, both refused.
        if (request.sessionRefusal !== null && request.sessionRefusal !== 'ambiguous') clearCookies(request, reply);
        return {
          loggedIn: request.session !== null,
          userId: request.session?.userId ?? null,
          name: SESSION_NAME,
          sandbox: options.sandbox,
          webClientUrl: app.config.webClientUrl,
          sandboxDialect: options.sandbox ? app.config.sandboxDialect : null,
          currency: app.config.currency,
          siteConfigOffered,
        };
      },
    );
  },
  { name: 'session', dependencies: ['security'] },
);
