import type { ErrorLogEntry, ErrorLogPage } from '../contract/error-log.js';
import type { PrimaryChannel } from '../cluster/ipc.js';
import type { ErrorLog, ErrorLogQuery, ErrorLogScope } from './store.js';

/** The calls the primary answers for its local log (server/cluster/primary.ts). */
export const ERROR_LOG_CALLS = {
  append: 'error-log.append',
  list: 'error-log.list',
  clear: 'error-log.clear',
  flush: 'error-log.flush',
} as const;

/**
 * A cluster worker's error log: every call goes to the primary, which owns the file and its
 * in-memory index, so N workers never write or count the same file behind each other's backs.
 * An append resolves once the primary has written the line, as the local store's does.
 */
export class IpcErrorLogStore implements ErrorLog {
  private closed = false;

  constructor(private readonly channel: PrimaryChannel) {}

  /** The primary opened the file before it started any worker. */
  async open(): Promise<void> {
    this.check();
  }

  async append(entry: ErrorLogEntry): Promise<void> {
    this.check();
    await this.channel.call(ERROR_LOG_CALLS.append, entry);
  }

  async list(query: ErrorLogQuery): Promise<ErrorLogPage> {
    this.check();
    return this.channel.call<ErrorLogPage>(ERROR_LOG_CALLS.list, query);
  }

  async clear(scope: ErrorLogScope = {}): Promise<void> {
    this.check();
    await this.channel.call(ERROR_LOG_CALLS.clear, scope);
  }

  async flush(): Promise<void> {
    this.check();
    await this.channel.call(ERROR_LOG_CALLS.flush);
  }

  /** The file stays open: the primary closes it once every worker has exited. */
  async close(): Promise<void> {
    this.closed = true;
  }

  private check(): void {
    if (this.closed) throw new Error('The error log is closed');
  }
}
