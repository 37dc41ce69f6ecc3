import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './ports.js';

export interface RedisTls {
  certFile: string;
  keyFile: string;
}

/**
 * A real redis-server for tests: on a free loopback port, in a temp folder, with no persistence,
 * so a restart comes back empty as a Redis without its data would. stop() and start() keep the
 * port, so clients configured with its URL reconnect by themselves; close() stops it for good and
 * removes its folder. Free of vitest, so the benchmarks use it too.
 */
export class RedisServer {
  private child: ChildProcess | null = null;
  private output = '';

  private constructor(
    readonly port: number,
    private readonly dir: string,
    /** Required of clients (requirepass) when set; it then travels in the URL. */
    readonly password: string | null,
    /** Certificate and key files: the server then speaks TLS only (rediss://). */
    private readonly tls: RedisTls | null,
  ) {}

  static async start(options: { password?: string; tls?: RedisTls } = {}): Promise<RedisServer> {
    const dir = mkdtempSync(path.join(tmpdir(), 'redis-test-'));
    const server = new RedisServer(await freePort(), dir, options.password ?? null, options.tls ?? null);
    await server.start();
    return server;
  }

  get url(): string {
    const auth = this.password === null ? '' : `:${encodeURIComponent(this.password)}@`;
    // Over TLS the certificate names localhost, so the URL must too.
    return this.tls ? `rediss://${auth}localhost:${this.port}` : `redis://${auth}127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.child) return;
    const ports = this.tls
      ? [
          '--port',
          '0',
          '--tls-port',
          String(this.port),
          '--tls-cert-file',
          this.tls.certFile,
          '--tls-key-file',
          this.tls.keyFile,
          '--tls-auth-clients',
          'no',
        ]
      : ['--port', String(this.port)];
    const args = [
      ...ports,
      '--bind',
      '127.0.0.1',
      '--dir',
      this.dir,
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'no',
    ];
    if (this.password !== null) args.push('--requirepass', this.password);
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.output = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (this.output += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (this.output += chunk));
    const deadline = Date.now() + 10_000;
    while (!(await this.answers())) {
      if (child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`redis-server did not start on port ${this.port}\n${this.output.slice(-2000)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Kills it outright (SIGKILL), as a crash or a lost host would. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async close(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Whether the server answers PING on its port. */
  private answers(): Promise<boolean> {
    return new Promise((resolve) => {
      // The probe only asks whether the server is up; the certificate is the client's business.
      const socket: Socket = this.tls
        ? connectTls({ port: this.port, host: '127.0.0.1', rejectUnauthorized: false })
        : connect(this.port, '127.0.0.1');
      let text = '';
      const done = (ok: boolean) => {
        socket.destroy();
        resolve(ok);
      };
      socket.setTimeout(1_000, () => done(false));
      socket.once('error', () => done(false));
      // Unauthenticated, a server with a password answers -NOAUTH: it is up all the same.
      socket.once(this.tls ? 'secureConnect' : 'connect', () => socket.write('PING\r\n'));
      socket.on('data', (chunk) => {
        text += chunk.toString('utf8');
        if (text.includes('\r\n')) done(text.startsWith('+PONG') || text.startsWith('-NOAUTH'));
      });
    });
  }
}
