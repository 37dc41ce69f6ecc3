import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { REPO_ROOT } from './paths.js';

/** What every child sends first: where it listens, when it listens on anything. */
export interface ReadyMessage {
  type: 'ready';
  port?: number;
  url?: string;
  [key: string]: unknown;
}

export interface SpawnOptions {
  env?: Record<string, string | undefined>;
  /** Extra node flags, e.g. --expose-gc. */
  nodeArgs?: string[];
  /** Child stdout and stderr go here (appended), so a noisy child does not clutter the tables. */
  logFile?: string;
  /** How long the child may take to say it is ready. */
  readyTimeoutMs?: number;
  /** Raise the soft open-files limit to the hard one first (thousands of sockets). */
  raiseFdLimit?: boolean;
  /** Run `script` with Node itself, not through tsx: a built bundle, run as the image runs it. */
  plainNode?: boolean;
}

/**
 * A TypeScript child process run through tsx (or a built bundle, with plainNode), talking to us over IPC. Requests carry an id and
 * the child answers with the same id, so several can be in flight at once.
 */
export class Child {
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  exitStatus: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly listeners = new Set<(message: Record<string, unknown>) => void>();

  private constructor(
    readonly name: string,
    readonly proc: ChildProcess,
  ) {
    this.exited = new Promise((resolve) => {
      proc.once('exit', (code, signal) => {
        this.exitStatus = { code, signal };
        for (const { reject } of this.pending.values()) reject(new Error(`${name} exited (${code ?? signal})`));
        this.pending.clear();
        resolve({ code, signal });
      });
    });
    proc.on('message', (raw) => {
      const message = raw as Record<string, unknown>;
      const id = message.id;
      if (typeof id === 'number' && this.pending.has(id)) {
        const waiter = this.pending.get(id)!;
        this.pending.delete(id);
        if (typeof message.error === 'string') waiter.reject(new Error(`${name}: ${message.error}`));
        else waiter.resolve(message);
        return;
      }
      for (const listener of this.listeners) listener(message);
    });
  }

  get pid(): number {
    return this.proc.pid!;
  }

  get alive(): boolean {
    return this.exitStatus === null;
  }

  static async start(
    name: string,
    script: string,
    options: SpawnOptions = {},
  ): Promise<{ child: Child; ready: ReadyMessage }> {
    const fd = options.logFile ? openSync(options.logFile, 'a') : null;
    const out = fd ?? 'inherit';
    const nodeArgs = [...(options.nodeArgs ?? []), ...(options.plainNode ? [] : ['--import', 'tsx']), script];
    // exec keeps the pid ours: the shell only sets the limit and becomes node.
    const [command, args] = options.raiseFdLimit
      ? ['/bin/sh', ['-c', 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$0" "$@"', process.execPath, ...nodeArgs]]
      : [process.execPath, nodeArgs];
    const proc = spawn(command, args, {
      cwd: REPO_ROOT,
      env: { ...process.env, ...options.env } as NodeJS.ProcessEnv,
      stdio: ['ignore', out, out, 'ipc'],
    });
    if (fd !== null) closeSync(fd);
    const child = new Child(name, proc);
    const timeoutMs = options.readyTimeoutMs ?? 30_000;
    const ready = await new Promise<ReadyMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        proc.kill('SIGKILL');
        reject(new Error(`${name} did not become ready within ${timeoutMs} ms`));
      }, timeoutMs);
      const onMessage = (message: Record<string, unknown>) => {
        if (message.type !== 'ready') return;
        clearTimeout(timer);
        child.listeners.delete(onMessage);
        resolve(message as ReadyMessage);
      };
      child.listeners.add(onMessage);
      void child.exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(
          new Error(
            `${name} exited before it was ready (${code ?? signal})${options.logFile ? `; see ${options.logFile}` : ''}`,
          ),
        );
      });
    });
    return { child, ready };
  }

  /** Sends a request and waits for the answer carrying its id. */
  request<T = Record<string, unknown>>(message: Record<string, unknown>, timeoutMs = 60_000): Promise<T> {
    if (!this.alive || !this.proc.connected) return Promise.reject(new Error(`${this.name} is not running`));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${this.name} did not answer ${String(message.type)} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value as T);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.proc.send({ ...message, id });
    });
  }

  /** Messages the child sends on its own (not answers). */
  onMessage(listener: (message: Record<string, unknown>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Signals the child and waits for it to go, escalating to SIGKILL after graceMs. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 5_000): Promise<void> {
    if (!this.alive) return;
    this.proc.kill(signal);
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}

/** The answering side of Child.request, for use inside children. */
export function serveRequests(handlers: Record<string, (message: Record<string, unknown>) => unknown>): void {
  process.on('message', (raw) => {
    const message = raw as Record<string, unknown>;
    const handler = typeof message.type === 'string' ? handlers[message.type] : undefined;
    const id = message.id;
    const reply = (body: Record<string, unknown>) => {
      if (process.connected) process.send?.({ ...body, id });
    };
    if (!handler) return reply({ error: `no handler for ${String(message.type)}` });
    Promise.resolve()
      .then(() => handler(message))
      .then(
        (result) => reply({ ...((result as Record<string, unknown> | undefined) ?? {}) }),
        (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
      );
  });
  // A parent that dies without stopping us must not leave us running.
  process.on('disconnect', () => process.exit(0));
}

export function sendReady(body: Omit<ReadyMessage, 'type'>): void {
  process.send?.({ type: 'ready', ...body });
}
