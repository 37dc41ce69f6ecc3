import type { Readable } from 'node:stream';
import { Pool, errors as undiciErrors } from 'undici';
import type { Envelope } from '../contract/index.js';
import { TOKEN_HEADER, USER_ID_HEADER, isEnvelope } from '../contract/index.js';
import { GatewayError } from '../errors.js';
import { withQuery, type BackendAuth, type CallCredentials, type SessionCredentials } from '../backend-map/auth.js';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Turns a raw answer (maybe encoded) into JSON bytes. */
export type AnswerDecoder = (answer: RawAnswer, path: string) => Promise<Buffer>;

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The session's credentials: sent as w-token and w-userId, or the backend map's way (auth). */
  session?: SessionCredentials | null;
  body?: unknown;
  /** A body already written (a form, say): sent as it is, instead of `body` as JSON. */
  rawBody?: { contentType: string; text: string };
  /**
   * A body still arriving (an upload passed on as it comes): sent as it is read, never held whole.
   * `length` is sent as Content-Length when known, else the body goes chunked. Its time to arrive
   * is the client's (REQUEST_TIMEOUT_MS) and is added to the time-out: the backend's answer still
   * has the usual time once the body has gone.
   */
  streamBody?: { contentType: string; body: Readable; length: number | null; arrivalMs: number };
  /** Sent as they are (the client's address as X-Forwarded-For, say). */
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** Largest answer accepted, bytes. */
  maxBytes?: number;
}

export interface UpstreamOptions {
  baseUrl: string;
  timeoutMs: number;
  tlsInsecure: boolean;
  maxAnswerBytes: number;
  /** Turns each answer of call() into JSON bytes (decoding w-enable-mode bodies). */
  decoder: AnswerDecoder;
  connections?: number;
  /** The backend map's auth: how the token travels, generated values, the signature. Null: w-token and w-userId. */
  auth?: BackendAuth | null;
}

/**
 * The gateway's connection to the chat backend: one keep-alive pool shared by the proxy and the
 * gateway's own calls (login, permission look-ups, withdrawal polls, readiness).
 */
export class Upstream {
  readonly origin: string;
  /** Path the backend is mounted under, '' for the root. */
  readonly pathPrefix: string;
  readonly pool: Pool;

  constructor(readonly options: UpstreamOptions) {
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.pathPrefix = url.pathname.replace(/\/+$/, '');
    this.pool = createBackendPool(this.origin, options);
  }

  /**
   * What one call carries for a session (or none): the backend map's auth when it has one, else
   * the contract's w-token and w-userId headers. Computed per call: generated values and
   * signatures are never reused.
   */
  credentials(session: SessionCredentials | null, method: string, path: string): CallCredentials {
    const auth = this.options.auth;
    if (auth) return auth.credentials(session, method, path);
    if (!session) return { headers: {}, query: {} };
    return { headers: { [TOKEN_HEADER]: session.token, [USER_ID_HEADER]: session.userId }, query: {} };
  }

  /** Sends one request and reads the whole answer, bounded in size and time. */
  async request(path: string, options: CallOptions = {}): Promise<RawAnswer> {
    const method = options.method ?? 'GET';
    const credentials = this.credentials(options.session ?? null, method, path);
    const headers: Record<string, string> = { ...options.headers, accept: 'application/json', ...credentials.headers };
    let body: string | Readable | undefined;
    let overall = options.timeoutMs ?? this.options.timeoutMs;
    if (options.streamBody !== undefined) {
      body = options.streamBody.body;
      headers['content-type'] = options.streamBody.contentType;
      if (options.streamBody.length !== null) headers['content-length'] = String(options.streamBody.length);
      overall += options.streamBody.arrivalMs;
    } else if (options.rawBody !== undefined) {
      body = options.rawBody.text;
      headers['content-type'] = options.rawBody.contentType;
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const timeout = options.timeoutMs ?? this.options.timeoutMs;
    const maxBytes = options.maxBytes ?? this.options.maxAnswerBytes;
    try {
      const answer = await this.pool.request({
        path: withQuery(this.pathPrefix + path, credentials.query),
        method,
        headers,
        body,
        headersTimeout: timeout,
        bodyTimeout: timeout,
        signal: AbortSignal.timeout(overall),
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of answer.body) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) {
          answer.body.destroy();
          throw new GatewayError('DECODE_TOO_LARGE');
        }
        chunks.push(chunk as Buffer);
      }
      return { status: answer.statusCode, headers: answer.headers, body: Buffer.concat(chunks) };
    } catch (error) {
      throw toGatewayError(error);
    }
  }

  /** A call whose answer is the backend's JSON envelope, decoded when encoded. */
  async call<T = unknown>(path: string, options: CallOptions = {}): Promise<Envelope<T>> {
    const answer = await this.request(path, options);
    const json = await this.options.decoder(answer, path);
    let parsed: unknown;
    try {
      parsed = JSON.parse(json.toString('utf8'));
    } catch {
      throw new GatewayError(
        'UPSTREAM_BAD_ANSWER',
        `${path} answered HTTP ${answer.status} with a body that is not JSON`,
      );
    }
    if (!isEnvelope(parsed)) {
      throw new GatewayError('UPSTREAM_BAD_ANSWER', `${path} answered without a {code, msg} envelope`);
    }
    return parsed as Envelope<T>;
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

/**
 * A keep-alive pool to one origin of the backend (or its file server), with the gateway's time-out
 * and certificate checking. Every pool the gateway opens comes from here: @fastify/reply-from's
 * own pools would skip the certificate check of an HTTPS origin and wait undici's 300 s.
 */
export function createBackendPool(
  origin: string,
  options: Pick<UpstreamOptions, 'timeoutMs' | 'tlsInsecure' | 'connections'>,
): Pool {
  return new Pool(origin, {
    connections: options.connections ?? 128,
    keepAliveTimeout: 60_000,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connect: { rejectUnauthorized: !options.tlsInsecure, timeout: Math.min(options.timeoutMs, 10_000) },
  });
}

/** Classifies a failure of a call to the backend into the gateway's catalogue. */
export function toGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  if (
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError ||
    (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
  ) {
    return new GatewayError('UPSTREAM_TIMEOUT', undefined, { cause: error });
  }
  return new GatewayError('UPSTREAM_UNREACHABLE', undefined, { cause: error });
}
