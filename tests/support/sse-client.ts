import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { GATEWAY_PATHS, WITHDRAWAL_EVENT } from '../../server/contract/index.js';
import { Waiters } from './wait.js';

export interface SseEvent {
  event: string;
  data: string;
}

/**
 * An incremental text/event-stream parser, as a browser's EventSource reads a stream: fields by
 * line (LF or CRLF), an event dispatched at each blank line, `:` lines as comments.
 */
export class SseParser {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  readonly retries: number[] = [];
  private buffer = '';
  private pending: SseEvent = { event: 'message', data: '' };

  /** Takes the next chunk of the stream, which may end anywhere, even inside a line. */
  feed(chunk: string): void {
    this.buffer += chunk;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, '');
      this.buffer = this.buffer.slice(newline + 1);
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === '') {
      if (this.pending.data !== '' || this.pending.event !== 'message') this.events.push(this.pending);
      this.pending = { event: 'message', data: '' };
      return;
    }
    if (line.startsWith(':')) return void this.comments.push(line.slice(1).trim());
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') this.pending.event = value;
    else if (field === 'data') this.pending.data = this.pending.data ? `${this.pending.data}\n${value}` : value;
    else if (field === 'retry') this.retries.push(Number(value));
  }
}

export interface SseOpenOptions {
  /** Default GATEWAY_PATHS.events. */
  path?: string;
  /** Sent besides cookie and accept (a Host header, say). */
  headers?: Record<string, string>;
  /** Over HTTPS, trusting `ca` and naming `servername` in the TLS handshake. */
  tls?: { ca: Buffer | string; servername: string };
  /** How long waitFor waits unless told otherwise; default 10 s. */
  timeoutMs?: number;
}

/**
 * One browser tab's view of an event stream, read raw over its own socket: status, headers and
 * the raw body as sent (so a test sees exactly what ended it), and the parsed events.
 */
export class SseClient {
  status = 0;
  headers: IncomingHttpHeaders = {};
  body = '';
  ended = false;
  private readonly parser = new SseParser();
  private readonly waiters = new Waiters();
  private req: ClientRequest | null = null;

  private constructor(private readonly timeoutMs: number) {}

  /** Resolves once the answer's head is in; `cookie` null sends no cookie (a guest). */
  static open(port: number, cookie: string | null, options: SseOpenOptions = {}): Promise<SseClient> {
    const client = new SseClient(options.timeoutMs ?? 10_000);
    const headers: Record<string, string> = {
      ...(cookie ? { cookie } : {}),
      accept: 'text/event-stream',
      ...options.headers,
    };
    const target = { host: '127.0.0.1', port, path: options.path ?? GATEWAY_PATHS.events, headers };
    return new Promise((resolve, reject) => {
      const onResponse = (res: IncomingMessage) => {
        client.status = res.statusCode ?? 0;
        client.headers = res.headers;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => client.feed(chunk));
        res.on('end', () => client.finish());
        res.on('close', () => client.finish());
        res.on('error', () => client.finish());
        resolve(client);
      };
      const req = options.tls
        ? httpsRequest({ ...target, ...options.tls }, onResponse)
        : httpRequest(target, onResponse);
      req.on('error', (error) => (client.status === 0 ? reject(error) : client.finish()));
      req.end();
      client.req = req;
    });
  }

  get events(): readonly SseEvent[] {
    return this.parser.events;
  }

  /** The text after each `:` comment line (heartbeats). */
  get comments(): readonly string[] {
    return this.parser.comments;
  }

  /** The values of `retry:` fields, as numbers. */
  get retries(): readonly number[] {
    return this.parser.retries;
  }

  /** The counts of the withdrawal events so far, in order. */
  counts(): number[] {
    return this.events
      .filter((e) => e.event === WITHDRAWAL_EVENT)
      .map((e) => (JSON.parse(e.data) as { count: number }).count);
  }

  /** Resolves when the condition holds; rejects when the stream ends first or time runs out. */
  waitFor(condition: () => boolean, what: string, timeoutMs = this.timeoutMs): Promise<void> {
    const soFar = () => `status ${this.status}; stream so far: ${JSON.stringify(this.body.slice(-4000))}`;
    return this.waiters.until(condition, {
      timeoutMs,
      timedOut: () => new Error(`timed out waiting for ${what}; ${soFar()}`),
      hopeless: () => (this.ended ? new Error(`the stream ended before ${what}; ${soFar()}`) : null),
    });
  }

  close(): void {
    this.req?.destroy();
  }

  private feed(chunk: string): void {
    this.body += chunk;
    this.parser.feed(chunk);
    this.waiters.notify();
  }

  private finish(): void {
    this.ended = true;
    this.waiters.notify();
  }
}
