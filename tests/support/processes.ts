import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { Waiters } from './wait.js';

const tempDirs: string[] = [];

/** A fresh folder under the system temp folder, removed by removeTempDirs(). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** Call from afterAll: every folder tempDir() made in this test file goes. */
export function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A gateway (or any program) running as its own process, with its output kept for asserts. */
export class NodeProcess {
  stdout = '';
  stderr = '';
  exit: ExitStatus | null = null;
  readonly exited: Promise<ExitStatus>;
  private readonly child: ChildProcess;
  private readonly waiters = new Waiters();

  /** Runs the Node running the tests, or `options.program` (nginx, say). */
  constructor(args: string[], options: { cwd: string; env: Record<string, string>; program?: string }) {
    // A clean environment: the developer's own CHAT_BACKEND_URL or PORT must not leak in.
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      ...options.env,
    };
    this.child = spawn(options.program ?? process.execPath, args, {
      cwd: options.cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stdout += chunk;
      this.notify();
    });
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
      this.notify();
    });
    this.exited = new Promise((resolve) => {
      this.child.on('close', (code, signal) => {
        this.exit = { code, signal };
        this.notify();
        resolve(this.exit);
      });
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  signal(name: NodeJS.Signals): void {
    this.child.kill(name);
  }

  /** Parsed pino JSON lines of stdout (anything else, such as pretty output, is skipped). */
  logLines(): Array<Record<string, unknown>> {
    const out: Array<Record<string, unknown>> = [];
    for (const line of this.stdout.split('\n')) {
      if (!line.startsWith('{')) continue;
      try {
        out.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // a line still being written
      }
    }
    return out;
  }

  /** Resolves when the condition holds; rejects when the process exits first or time runs out. */
  waitFor(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    return this.waiters.until(condition, {
      timeoutMs,
      timedOut: () => new Error(`timed out waiting for ${what}\n${this.output()}`),
      hopeless: () =>
        this.exit
          ? new Error(`the process exited (${JSON.stringify(this.exit)}) before ${what}\n${this.output()}`)
          : null,
    });
  }

  /** Stops the process if the test left it running, so no gateway outlives its test. */
  async stop(): Promise<void> {
    if (this.exit) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }

  output(): string {
    return `--- stdout ---\n${this.stdout.slice(-4000)}\n--- stderr ---\n${this.stderr.slice(-4000)}`;
  }

  private notify(): void {
    this.waiters.notify();
  }
}

/** Polls /healthz until the gateway answers; fails early with its output when it dies. */
export async function waitHealthy(gateway: NodeProcess, baseUrl: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (gateway.exit)
      throw new Error(`the gateway exited (${JSON.stringify(gateway.exit)}) before it answered\n${gateway.output()}`);
    try {
      const res = await fetch(`${baseUrl}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the gateway did not answer /healthz\n${gateway.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Cleanups a test registers as it starts things, run in reverse after each test; temp folders
 * go after the file. Call once at the top of a test file.
 */
export function cleanupAfterEach(): (cleanup: () => Promise<void>) => void {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  afterAll(removeTempDirs);
  return (cleanup) => void cleanups.push(cleanup);
}

export interface Answer {
  status: number;
  body: string;
}

/**
 * One request on a connection of its own (no keep-alive pool), so the cluster hands each to the
 * next worker in turn instead of every request riding the first worker's connection.
 */
export function freshCall(
  baseUrl: string,
  pathname: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${baseUrl}${pathname}`,
      { method: options.method ?? 'GET', agent: false, headers: { connection: 'close', ...options.headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
