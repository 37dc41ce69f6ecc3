import type { Envelope, LoginAnswer } from '../server/contract/index.js';
import { CALLS, ENABLE_MODE_HEADER, TOKEN_HEADER, USER_ID_HEADER } from '../server/contract/index.js';
import { decodeBody, parseEnableMode, type CodecKey } from './codec.js';
import { sandboxCodecKey } from './key.js';

/**
 * A small client of the chat backend's /manage contract, decoding encoded answers as the
 * gateway does. The sandbox's tests use it, and so can the gateway's tests and the bench to talk to
 * a sandbox directly.
 */

export interface BackendSession {
  token: string;
  userId: string;
}

export interface BackendAnswer<T = unknown> {
  status: number;
  /** The `w-enable-mode` the answer came with, or null for plain JSON. */
  mode: 1 | 3 | null;
  headers: Headers;
  raw: Buffer;
  envelope: Envelope<T>;
}

export interface CallOptions {
  method?: 'GET' | 'POST';
  body?: unknown;
  session?: BackendSession | null;
  query?: Record<string, string | number>;
}

export class BackendClient {
  constructor(
    readonly baseUrl: string,
    private readonly key: CodecKey = sandboxCodecKey(),
  ) {}

  async call<T = unknown>(path: string, options: CallOptions = {}): Promise<BackendAnswer<T>> {
    const url = new URL(path, this.baseUrl);
    for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = {};
    if (options.session) {
      headers[TOKEN_HEADER] = options.session.token;
      headers[USER_ID_HEADER] = options.session.userId;
    }
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const response = await fetch(url, {
      method: options.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
    });
    const raw = Buffer.from(await response.arrayBuffer());
    const mode = parseEnableMode(response.headers.get(ENABLE_MODE_HEADER));
    const json = mode === null ? raw : decodeBody(raw, mode, this.key);
    return {
      status: response.status,
      mode,
      headers: response.headers,
      raw,
      envelope: JSON.parse(json.toString('utf8')) as Envelope<T>,
    };
  }

  /** Logs in and answers the session, or throws with the backend's message. */
  async login(account: string, password: string): Promise<BackendSession> {
    const answer = await this.call<LoginAnswer>(CALLS.login, { body: { account, password, code: '' } });
    const data = answer.envelope.data;
    if (answer.envelope.code !== 200 || !data?.token)
      throw new Error(`login of ${account} failed: ${answer.envelope.msg}`);
    return { token: data.token, userId: String(data.userId) };
  }
}
