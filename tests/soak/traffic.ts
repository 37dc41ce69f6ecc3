import { Pool, type Dispatcher } from 'undici';
import { CALLS, PERMISSIONS } from '../../server/contract/index.js';
import { ACCOUNTS, cookieHeader, type Account } from '../support/login.js';
import { sleep } from '../support/wait.js';

/** A response that breaks the soak's rule on failures, kept for the report. */
export interface Violation {
  at: string;
  what: string;
}

export interface TrafficCounts {
  requests: number;
  byStatus: Record<string, number>;
  /** Gateway errors by their `error` name (UPSTREAM_UNREACHABLE, UPSTREAM_TIMEOUT, ...). */
  byError: Record<string, number>;
  logins: number;
  streamsOpened: number;
  streamEvents: number;
}

const ENCODED_CALLS = [CALLS.count, CALLS.dailyStatistics, CALLS.financeData, CALLS.monitoring, CALLS.permission];
const LIST_CALLS = [
  `${PERMISSIONS.billRecord}/list?pageNum=1&pageSize=20`,
  `${PERMISSIONS.cashWithdrawalCheck}/list?pageNum=1&pageSize=50`,
];

/**
 * Mixed console traffic against one gateway: logins, list pages, encoded dashboard calls and
 * event streams opening and closing. Every answer is checked: a 5xx must be a 502 or 504 in the
 * {code, msg, error} envelope, and the gateway must never drop a connection without answering.
 */
export class Traffic {
  readonly counts: TrafficCounts = {
    requests: 0,
    byStatus: {},
    byError: {},
    logins: 0,
    streamsOpened: 0,
    streamEvents: 0,
  };
  readonly violations: Violation[] = [];
  private pool!: Pool;
  private streamPool!: Pool;
  private cookie: string | null = null;
  private loggingIn: Promise<void> | null = null;
  private running = false;
  private workers: Promise<void>[] = [];
  private readonly streams = new Set<AbortController>();

  constructor(
    readonly origin: string,
    private readonly phase: () => string,
  ) {}

  /** Starts the workers on fresh connections. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.pool = new Pool(this.origin, { connections: 24, headersTimeout: 30_000, bodyTimeout: 30_000 });
    this.streamPool = new Pool(this.origin, { connections: 16, headersTimeout: 30_000, bodyTimeout: 0 });
    const loop = (body: () => Promise<void>, pauseMs: number) =>
      (async () => {
        while (this.running) {
          await body();
          await sleep(pauseMs + Math.random() * pauseMs);
        }
      })();
    this.workers = [
      ...Array.from({ length: 3 }, () =>
        loop(() => this.call('GET', LIST_CALLS[Math.floor(Math.random() * LIST_CALLS.length)]!), 30),
      ),
      ...Array.from({ length: 3 }, () =>
        loop(() => this.call('GET', ENCODED_CALLS[Math.floor(Math.random() * ENCODED_CALLS.length)]!), 30),
      ),
      // The operator account, so these logins do not replace the admin session the others use.
      loop(() => this.login('operator').then(() => undefined), 400),
      ...Array.from({ length: 4 }, () => loop(() => this.stream(), 100)),
    ];
  }

  /** Stops issuing calls, waits for the ones in flight and closes every client connection. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    for (const controller of this.streams) controller.abort();
    await Promise.all(this.workers);
    this.workers = [];
    await Promise.all([this.pool.close(), this.streamPool.close()]);
  }

  private note(what: string): void {
    if (this.violations.length < 200) this.violations.push({ at: this.phase(), what });
  }

  /** Records the status and checks the failure rule; returns the parsed JSON body when there is one. */
  private async check(
    label: string,
    status: number,
    headers: Dispatcher.ResponseData['headers'],
    text: string,
  ): Promise<unknown> {
    this.counts.requests++;
    this.counts.byStatus[status] = (this.counts.byStatus[status] ?? 0) + 1;
    const type = String(headers['content-type'] ?? '');
    let json: unknown = undefined;
    if (type.includes('json')) {
      try {
        json = JSON.parse(text);
      } catch {
        this.note(`${label}: HTTP ${status} with a JSON content type and a body that does not parse`);
      }
    }
    if (status >= 500) {
      const body = json as { code?: unknown; msg?: unknown; error?: unknown } | undefined;
      if (status !== 502 && status !== 504) this.note(`${label}: HTTP ${status} (only 502 and 504 may fail a call)`);
      else if (!body || body.code !== status || typeof body.msg !== 'string' || typeof body.error !== 'string') {
        this.note(`${label}: HTTP ${status} without a {code, msg, error} JSON body: ${text.slice(0, 120)}`);
      } else {
        this.counts.byError[body.error] = (this.counts.byError[body.error] ?? 0) + 1;
      }
    }
    return json;
  }

  private async login(who: Account): Promise<string | null> {
    try {
      const answer = await this.pool.request({
        path: CALLS.login,
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: this.origin },
        body: JSON.stringify({ ...ACCOUNTS[who], code: '' }),
      });
      const text = await answer.body.text();
      const json = (await this.check('POST logIn', answer.statusCode, answer.headers, text)) as
        { code?: number } | undefined;
      if (answer.statusCode !== 200 || json?.code !== 200) return null;
      this.counts.logins++;
      const setCookie = answer.headers['set-cookie'];
      return cookieHeader(Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []);
    } catch (error) {
      this.note(`POST logIn: the gateway dropped the call (${(error as Error).message})`);
      return null;
    }
  }

  /** The admin session every other call uses; one login at a time however many calls heard 401. */
  private async session(): Promise<string | null> {
    if (this.cookie) return this.cookie;
    if (!this.loggingIn) {
      this.loggingIn = this.login('admin').then((cookie) => {
        this.cookie = cookie;
        this.loggingIn = null;
      });
    }
    await this.loggingIn;
    return this.cookie;
  }

  private async call(method: 'GET', path: string): Promise<void> {
    const cookie = await this.session();
    if (!cookie) return;
    try {
      const answer = await this.pool.request({ path, method, headers: { cookie } });
      const text = await answer.body.text();
      const json = (await this.check(`${method} ${path.split('?')[0]}`, answer.statusCode, answer.headers, text)) as
        { code?: number } | undefined;
      // A restarted backend forgot every session: log in again.
      if (answer.statusCode === 401 || json?.code === 401) this.cookie = null;
    } catch (error) {
      this.note(`${method} ${path}: the gateway dropped the call (${(error as Error).message})`);
    }
  }

  private async stream(): Promise<void> {
    const cookie = await this.session();
    if (!cookie) return;
    const controller = new AbortController();
    this.streams.add(controller);
    const holdMs = 300 + Math.random() * 2_500;
    const timer = setTimeout(() => controller.abort(), holdMs);
    try {
      const answer = await this.streamPool.request({
        path: '/api/events',
        method: 'GET',
        headers: { cookie, accept: 'text/event-stream' },
        signal: controller.signal,
      });
      if (answer.statusCode !== 200) {
        const text = await answer.body.text();
        await this.check('GET /api/events', answer.statusCode, answer.headers, text);
        if (answer.statusCode === 401) this.cookie = null;
        return;
      }
      this.counts.requests++;
      this.counts.byStatus[200] = (this.counts.byStatus[200] ?? 0) + 1;
      this.counts.streamsOpened++;
      for await (const chunk of answer.body) {
        this.counts.streamEvents += (String(chunk).match(/^event: /gm) ?? []).length;
      }
    } catch (error) {
      if (!controller.signal.aborted) this.note(`GET /api/events: the stream broke (${(error as Error).message})`);
    } finally {
      clearTimeout(timer);
      this.streams.delete(controller);
    }
  }
}
