import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type { SandboxDialect } from '../server/contract/gateway.js';
import { registerEncoding } from './encoded-routes.js';
import { SandboxError } from './errors.js';
import type { CodecKey } from './codec.js';
import { sandboxCodecKey } from './key.js';
import { registerAuth } from './routes/auth.js';
import { registerDashboard } from './routes/dashboard.js';
import { registerDeployment } from './routes/deployment.js';
import { registerFiles } from './routes/files.js';
import { UploadStore, registerUploads } from './routes/uploads.js';
import { sandboxBindings } from './routes/bindings/index.js';
import { registerFinance } from './routes/finance.js';
import { registerResources } from './routes/resources.js';
import { SandboxStore } from './store/sandbox-store.js';
import type { Seed } from './store/seeds.js';
import { RESOURCES, type Resource } from '../server/contract/index.js';
import { registerLegacyDialect } from './legacy/routes.js';
import { registerOpenImChatApi, registerOpenImDialect, registerOpenImServerApi } from './openim/routes.js';
import type { OpenImState } from './openim/state.js';
import { registerShikuDialect } from './shiku/routes.js';

export interface SandboxOptions {
  /** Seed of the simulated data; the same seed gives the same users, groups and money. */
  seed?: number;
  /** How often a new withdrawal application arrives (default every 20 minutes); 0 disables. */
  withdrawalTickMs?: number;
  /** The timer adds no application while this many wait for review (default 60). */
  maxPendingWithdrawals?: number;
  logger?: boolean;
  /** End of the seeded history; defaults to the start time. */
  now?: number;
  /** How many chat users to seed (default 3,000; a bench may ask for 100,000). */
  userCount?: number;
  /**
   * `legacy`: the same data in a typical Java admin backend's dialect (see legacy/routes.ts);
   * `openim`: as OpenIM Chat's admin API serves it (see openim/routes.ts).
   */
  dialect?: SandboxDialect;
  /** The sandbox's idea of now (epoch ms), so tests can move time; the shiku dialect's tokens and signatures read it. */
  clock?: () => number;
  /**
   * How encoded answers are encrypted (default: the sandbox key, CBC, the gateway's default IV),
   * so a test can stand for a backend whose RESPONSE_AES_IV or RESPONSE_AES_MODE differs.
   */
  codec?: CodecKey;
  /** Where the pending withdrawal count is served (default the contract's), as a backend with its own WITHDRAWAL_COUNT_PATH. */
  withdrawalCountPath?: string;
  /**
   * Where uploaded files are kept (under `uploads/`); a temporary folder, removed at close, when
   * absent. The gateway's sandbox mode uses `<DATA_DIR>/sandbox`.
   */
  dataDir?: string;
  /**
   * The management resources served (default the contract's RESOURCES): a test adds a declaration
   * of its own to see a new screen served from it alone, as production would once it is registered.
   */
  resources?: readonly Resource[];
  /** Starting rows of the resources served from their declaration alone, by id (default store/seeds.ts). */
  seeds?: Readonly<Record<string, Seed>>;
}

export type { SandboxDialect } from '../server/contract/gateway.js';

/** One call that reached the sandbox from outside, as its record keeps it. */
export interface RecordedCall {
  method: string;
  path: string;
}

/** How many calls the record keeps (the newest). */
const RECORD_LIMIT = 10_000;

export const DEFAULT_SEED = 20240601;
/**
 * A few applications an hour, as a real site's queue fills: one every 20 s read 99+ on the badge
 * within the hour, which no reviewer would believe.
 */
export const DEFAULT_WITHDRAWAL_TICK_MS = 20 * 60_000;
/** A queue left alone for days stops growing here, so the demo never shows an absurd backlog. */
export const DEFAULT_MAX_PENDING_WITHDRAWALS = 60;

/** The sandbox backend with its store, for tests to read and change (`app.sandbox.addPendingWithdrawal()`). */
export type SandboxApp = FastifyInstance & {
  sandbox: SandboxStore;
  sandboxDialect: SandboxDialect;
  sandboxCalls: RecordedCall[];
  /** The uploaded files, on disk under the data folder. */
  sandboxUploads: UploadStore;
  /**
   * Further services of the backend by name, each its own Fastify instance over the same data
   * (OpenIM's chat API beside its admin API); start.ts listens on each and closes them with the app.
   */
  sandboxServices: Record<string, FastifyInstance>;
  /** The OpenIM dialect's own state (md5 passwords, levels, blocks), for tests to check; null in the other dialects. */
  openIm: OpenImState | null;
};

/**
 * The simulated chat backend: its own Fastify instance (never listens; start.ts does). Every answer
 * is HTTP 200 with the {code, msg, data} envelope, business refusals included, like the real one.
 */
export async function buildSandbox(options: SandboxOptions = {}): Promise<SandboxApp> {
  const store = new SandboxStore({
    seed: options.seed ?? DEFAULT_SEED,
    now: options.now ?? Date.now(),
    ...(options.userCount === undefined ? {} : { userCount: options.userCount }),
    ...(options.seeds === undefined ? {} : { seeds: options.seeds }),
  });
  const app: FastifyInstance = Fastify({ logger: options.logger ?? false, forceCloseConnections: true });
  app.decorate('sandbox', store);
  const dialect = options.dialect ?? 'default';
  app.decorate('sandboxDialect', dialect);
  // What callers asked, so tests can check what a client (the probe, say) did and did not call.
  const calls: RecordedCall[] = [];
  let legacy: ReturnType<typeof registerLegacyDialect> | null = null;
  app.decorate('sandboxCalls', calls);
  const record = async (request: { method: string; url: string }) => {
    if (calls.length >= RECORD_LIMIT) calls.splice(0, calls.length - RECORD_LIMIT + 1);
    calls.push({ method: request.method, path: request.url.split('?')[0]! });
  };
  app.addHook('onRequest', async (request) => {
    if (legacy?.isInternal(request)) return;
    await record(request);
  });
  const services: Record<string, FastifyInstance> = {};
  app.decorate('sandboxServices', services);
  let openIm: OpenImState | null = null;

  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'sandbox-data-')));
  if (options.dataDir === undefined) app.addHook('onClose', async () => rm(dataDir, { recursive: true, force: true }));
  const uploads = new UploadStore(dataDir);
  app.decorate('sandboxUploads', uploads);

  if (dialect === 'openim') {
    // OpenIM's transport, envelope and auth throughout: none of the contract's routes is served.
    // The admin API here, the chat API on a listener of its own over the same state.
    const state = (openIm = registerOpenImDialect(app, store));
    const chat = Fastify({ logger: options.logger ?? false, forceCloseConnections: true });
    chat.addHook('onRequest', record);
    registerOpenImChatApi(chat, state);
    services.chat = chat;
    // OpenIM Server (groups), the third service, reached with the login's imToken.
    const im = Fastify({ logger: options.logger ?? false, forceCloseConnections: true });
    im.addHook('onRequest', record);
    registerOpenImServerApi(im, state);
    services.im = im;
    app.addHook('onClose', async () => {
      await chat.close();
      await im.close();
    });
  } else {
    legacy = registerContract(app, store, dialect, options.clock ?? Date.now, options, uploads);
  }

  app.decorate('openIm', openIm);

  const tickMs = options.withdrawalTickMs ?? DEFAULT_WITHDRAWAL_TICK_MS;
  const maxPending = options.maxPendingWithdrawals ?? DEFAULT_MAX_PENDING_WITHDRAWALS;
  if (tickMs > 0) {
    const timer = setInterval(() => {
      store.counters.withdrawalTicks++;
      if (store.pendingWithdrawalCount() >= maxPending) return;
      store.addPendingWithdrawal();
    }, tickMs);
    // The simulator must never be what keeps a process (or a test run) alive.
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }

  return app as SandboxApp;
}

/**
 * The contract's routes, with its envelope for refusals and unknown paths, and the legacy dialect
 * over them (the shiku dialect in front of them).
 */
function registerContract(
  app: FastifyInstance,
  store: SandboxStore,
  dialect: SandboxDialect,
  clock: () => number,
  options: Pick<SandboxOptions, 'codec' | 'withdrawalCountPath' | 'resources'>,
  uploads: UploadStore,
): ReturnType<typeof registerLegacyDialect> | null {
  app.setErrorHandler((error: FastifyError | SandboxError, request, reply) => {
    if (error instanceof SandboxError) {
      return reply
        .code(200)
        .send({ code: error.code, msg: error.message, ...(error.data === undefined ? {} : { data: error.data }) });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Malformed JSON, an empty JSON body, a body too large: the client's fault, in the envelope.
      return reply.code(200).send({ code: status, msg: error.message });
    }
    request.log.error({ err: error }, 'sandbox route failed');
    return reply.code(500).send({ code: 500, msg: 'Internal server error' });
  });
  app.setNotFoundHandler((request, reply) => {
    reply.code(200).send({ code: 404, msg: `No such interface: ${request.method} ${request.url.split('?')[0]}` });
  });

  // Before the contract's guard: the shiku dialect answers every path outside its own as Shiku would.
  if (dialect === 'shiku') registerShikuDialect(app, store, clock);
  registerAuth(app, store);
  registerEncoding(app, options.codec ?? sandboxCodecKey());
  registerFiles(app, store, uploads);
  registerUploads(app, uploads);
  registerDashboard(app, store);
  registerDeployment(app, store);
  registerFinance(app, store, options.withdrawalCountPath);
  const resources = options.resources ?? RESOURCES;
  registerResources(app, store, sandboxBindings(store, resources), resources);
  return dialect === 'legacy' ? registerLegacyDialect(app, uploads, resources) : null;
}
