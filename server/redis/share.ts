import { randomUUID } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';

/** The slice of a pino logger the connection reports through. */
export interface ShareLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface RedisShareOptions {
  /** REDIS_URL: password, database and TLS (rediss://) come from it. */
  url: string;
  log: ShareLog;
  /** Told whenever the connection is lost or ready again (the metric). */
  onStateChange?(up: boolean): void;
}

/** Every key and channel of the console starts with this, so a shared Redis can hold other data too. */
export const REDIS_KEY_PREFIX = 'chat-console:';
/** A command that takes longer than this is treated as Redis being unavailable, never awaited further. */
const COMMAND_TIMEOUT_MS = 2_000;

/** Reconnection waits: quick at first, then every 5 s for as long as Redis stays away. */
function retryDelay(attempt: number): number {
  return Math.min(5_000, 100 * 2 ** Math.min(attempt, 6));
}

/**
 * The connection replicas and workers share state through: one client for commands and one for
 * publish/subscribe (a subscribed connection can send nothing else). Commands never queue while
 * Redis is away: they fail at once, so each caller falls back to this process's own state instead
 * of holding a login or a page. Both clients reconnect by themselves, forever; listeners of
 * onReady resynchronise whatever they kept locally meanwhile.
 */
export class RedisShare {
  /** Names this process in what it publishes, so it can skip its own messages. */
  readonly replicaId = randomUUID();
  readonly command: Redis;
  private readonly subscriber: Redis;
  private readonly handlers = new Map<string, Set<(message: string) => void>>();
  private readonly readyListeners = new Set<() => void>();
  private commandReady = false;
  private subscriberReady = false;
  private up = false;
  /** False until the first connection, so a start without Redis says so once, as an outage. */
  private everUp = false;
  private lostLogged = false;
  private closed = false;

  constructor(private readonly options: RedisShareOptions) {
    const common: RedisOptions = {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 5_000,
      retryStrategy: retryDelay,
      // The subscriber re-subscribes itself on every ready (below), with the channels known then.
      autoResubscribe: false,
    };
    this.command = new Redis(options.url, { ...common, commandTimeout: COMMAND_TIMEOUT_MS });
    this.subscriber = new Redis(options.url, common);

    this.command.on('ready', () => {
      this.commandReady = true;
      this.update();
    });
    this.subscriber.on('ready', () => {
      const channels = [...this.handlers.keys()];
      const subscribed = channels.length > 0 ? this.subscriber.subscribe(...channels) : Promise.resolve(0);
      subscribed.then(
        () => {
          this.subscriberReady = true;
          this.update();
        },
        (error: unknown) => {
          this.lost(error);
          // Without its channels the connection is of no use: reconnect, and subscribe again then.
          this.subscriber.disconnect(true);
        },
      );
    });
    for (const client of [this.command, this.subscriber]) {
      client.on('close', () => {
        if (client === this.command) this.commandReady = false;
        else this.subscriberReady = false;
        this.update();
      });
      // Every failed reconnection emits an error; the outage is logged once, in lost().
      client.on('error', (error: unknown) => this.lost(error));
    }
    this.subscriber.on('message', (channel: string, message: string) => {
      for (const handler of this.handlers.get(channel) ?? []) {
        try {
          handler(message);
        } catch {
          // One listener's failure must not keep the message from the others.
        }
      }
    });
  }

  /** Whether both connections are ready: shared state can be read and written, messages heard. */
  get available(): boolean {
    return this.up;
  }

  key(name: string): string {
    return REDIS_KEY_PREFIX + name;
  }

  /** Hears messages on a channel (named without the prefix) from every process, this one included. */
  listen(channel: string, handler: (message: string) => void): void {
    const name = this.key(channel);
    let set = this.handlers.get(name);
    if (!set) {
      set = new Set();
      this.handlers.set(name, set);
      if (this.subscriber.status === 'ready')
        void this.subscriber.subscribe(name).catch((error: unknown) => this.lost(error));
    }
    set.add(handler);
  }

  /** Publishes to every process; false when Redis could not take it. Never throws. */
  async publish(channel: string, message: string): Promise<boolean> {
    if (!this.up) return false;
    try {
      await this.command.publish(this.key(channel), message);
      return true;
    } catch {
      return false;
    }
  }

  /** Called each time sharing resumes (and on the first connection): resynchronise from Redis. */
  onReady(listener: () => void): void {
    this.readyListeners.add(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.readyListeners.clear();
    this.handlers.clear();
    // disconnect(), not quit(): quit would wait for a Redis that may be the reason for the shutdown.
    this.command.disconnect();
    this.subscriber.disconnect();
  }

  private update(): void {
    const up = this.commandReady && this.subscriberReady;
    if (up === this.up || this.closed) return;
    this.up = up;
    this.options.onStateChange?.(up);
    if (up) {
      this.options.log.info(
        { redis: this.everUp ? 'reconnected' : 'connected' },
        'Redis is ready: replicas share the error log, sessions and withdrawal polls',
      );
      this.everUp = true;
      this.lostLogged = false;
      for (const listener of [...this.readyListeners]) {
        try {
          listener();
        } catch {
          // A listener that cannot resynchronise must not keep the others from doing so.
        }
      }
    } else {
      this.lost(null);
    }
  }

  private lost(error: unknown): void {
    if (this.closed || this.lostLogged || this.up) return;
    this.lostLogged = true;
    this.options.onStateChange?.(false);
    // The reason, never the URL: it may hold the password.
    const reason = error instanceof Error ? error.message : 'connection closed';
    this.options.log.warn(
      { reason },
      this.everUp
        ? 'Redis connection lost: each replica goes on alone (local error log, local session and poll state) until it is back'
        : 'Redis is not reachable yet: each replica goes on alone (local error log, local session and poll state) until it is',
    );
  }
}
