import cluster, { type Worker } from 'node:cluster';

/**
 * Calls from a worker to the primary over the cluster's IPC channel, for the state that must have
 * one owner (the error log) or must be summed over every worker (metrics). Messages carry a
 * `gateway` tag so they never mix with prom-client's own cluster messages.
 */

export interface RpcRequest {
  gateway: 'rpc';
  id: number;
  method: string;
  params: unknown;
}

export interface RpcReply {
  gateway: 'rpc-reply';
  id: number;
  result?: unknown;
  error?: string;
}

/** Sent by the primary: shut down gracefully, as a single process does on SIGTERM. */
export interface ShutdownMessage {
  gateway: 'shutdown';
}

export type RpcHandler = (params: unknown, worker: Worker) => unknown;

/** Sent by the primary to every worker; each answers with a BroadcastAck once it has applied it. */
export interface BroadcastMessage {
  gateway: 'broadcast';
  id: number;
  topic: string;
  payload: unknown;
}

export interface BroadcastAck {
  gateway: 'broadcast-ack';
  id: number;
}

export type BroadcastHandler = (payload: unknown) => void | Promise<void>;

const DEFAULT_CALL_TIMEOUT_MS = 30_000;

function isTagged(message: unknown, tag: string): boolean {
  return typeof message === 'object' && message !== null && (message as { gateway?: unknown }).gateway === tag;
}

export function isShutdownMessage(message: unknown): message is ShutdownMessage {
  return isTagged(message, 'shutdown');
}

/** The worker's end: one request at a time per id, answered by the primary's serveWorkers(). */
export class PrimaryChannel {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }
  >();
  private readonly broadcastHandlers = new Map<string, BroadcastHandler>();

  constructor(
    private readonly proc: NodeJS.Process = process,
    private readonly timeoutMs = DEFAULT_CALL_TIMEOUT_MS,
  ) {
    proc.on('message', (message: unknown) => {
      if (isTagged(message, 'broadcast')) return void this.applyBroadcast(message as BroadcastMessage);
      if (!isTagged(message, 'rpc-reply')) return;
      const reply = message as RpcReply;
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      clearTimeout(waiter.timer);
      if (typeof reply.error === 'string') waiter.reject(new Error(reply.error));
      else waiter.resolve(reply.result);
    });
    proc.on('disconnect', () => {
      for (const [id, waiter] of this.pending) {
        this.pending.delete(id);
        clearTimeout(waiter.timer);
        waiter.reject(new Error('the gateway primary process is gone'));
      }
    });
  }

  /** Handles the primary's broadcasts of one topic (one handler per topic). */
  onBroadcast(topic: string, handler: BroadcastHandler): void {
    this.broadcastHandlers.set(topic, handler);
  }

  private applyBroadcast(message: BroadcastMessage): void {
    const handler = this.broadcastHandlers.get(message.topic);
    Promise.resolve()
      .then(() => handler?.(message.payload))
      .catch(() => undefined)
      .then(() => {
        if (!this.proc.send || !this.proc.connected) return;
        const ack: BroadcastAck = { gateway: 'broadcast-ack', id: message.id };
        this.proc.send(ack, undefined, undefined, () => undefined);
      })
      // A send that throws means the channel closed: the primary is gone, which 'disconnect' handles.
      .catch(() => undefined);
  }

  call<T>(method: string, params: unknown = null): Promise<T> {
    if (!this.proc.send || !this.proc.connected)
      return Promise.reject(new Error('the gateway primary process is gone'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`the gateway primary did not answer ${method} within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      timer.unref();
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      const request: RpcRequest = { gateway: 'rpc', id, method, params };
      this.proc.send!(request, undefined, undefined, (error: Error | null) => {
        if (!error) return;
        const waiter = this.pending.get(id);
        if (!waiter) return;
        this.pending.delete(id);
        clearTimeout(waiter.timer);
        waiter.reject(error);
      });
    });
  }
}

/** The primary's end: answers every worker's calls with the named handler. */
export function serveWorkers(handlers: Record<string, RpcHandler>): void {
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isTagged(message, 'rpc')) return;
    const request = message as RpcRequest;
    const reply = (body: Omit<RpcReply, 'gateway' | 'id'>) => {
      // A worker that died meanwhile has nobody left to answer.
      if (!worker.isConnected()) return;
      const answer: RpcReply = { gateway: 'rpc-reply', id: request.id, ...body };
      worker.send(answer, undefined, () => undefined);
    };
    const handler = Object.hasOwn(handlers, request.method) ? handlers[request.method] : undefined;
    if (!handler) return reply({ error: `unknown call ${String(request.method)}` });
    Promise.resolve()
      .then(() => handler(request.params, worker))
      .then(
        (result) => reply({ result: result ?? null }),
        (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
      );
  });
}

let nextBroadcastId = 1;
const awaitingAcks = new Map<number, { workers: Set<number>; done: () => void }>();
let acksHeard = false;

function hearAcks(): void {
  if (acksHeard) return;
  acksHeard = true;
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isTagged(message, 'broadcast-ack')) return;
    const waiting = awaitingAcks.get((message as BroadcastAck).id);
    if (!waiting) return;
    waiting.workers.delete(worker.id);
    if (waiting.workers.size === 0) waiting.done();
  });
  // A worker that dies before it acknowledges holds nobody up.
  cluster.on('exit', (worker: Worker) => {
    for (const waiting of [...awaitingAcks.values()]) {
      waiting.workers.delete(worker.id);
      if (waiting.workers.size === 0) waiting.done();
    }
  });
}

/**
 * The primary's end: sends a message to every connected worker and resolves once each has applied
 * it (or died, or `timeoutMs` passed), so what a worker asked for holds in all of them on return.
 */
export function broadcastToWorkers(topic: string, payload: unknown, timeoutMs = 5_000): Promise<void> {
  hearAcks();
  const id = nextBroadcastId++;
  const targets = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && w.isConnected());
  if (targets.length === 0) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      awaitingAcks.delete(id);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    timer.unref();
    awaitingAcks.set(id, { workers: new Set(targets.map((w) => w.id)), done });
    const message: BroadcastMessage = { gateway: 'broadcast', id, topic, payload };
    for (const worker of targets) {
      worker.send(message, undefined, (error: Error | null) => {
        if (!error) return;
        const waiting = awaitingAcks.get(id);
        if (!waiting) return;
        waiting.workers.delete(worker.id);
        if (waiting.workers.size === 0) waiting.done();
      });
    }
  });
}
