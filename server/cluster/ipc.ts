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
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();

  constructor(
    private readonly proc: NodeJS.Process = process,
    private readonly timeoutMs = DEFAULT_CALL_TIMEOUT_MS,
  ) {
    proc.on('message', (message: unknown) => {
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

  call<T>(method: string, params: unknown = null): Promise<T> {
    if (!this.proc.send || !this.proc.connected) return Promise.reject(new Error('the gateway primary process is gone'));
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

let channel: PrimaryChannel | null = null;

/**
 * Set by a cluster worker (server/cluster/worker.ts) before it builds the app: the error-log and
 * health plugins then use the primary's error log and aggregated metrics. Null in a single
 * process and in tests that build apps in-process, which keep the local ones.
 */
export function primaryChannel(): PrimaryChannel | null {
  return channel;
}

export function setPrimaryChannel(value: PrimaryChannel | null): void {
  channel = value;
}
