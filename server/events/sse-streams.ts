/** The slice of a ServerResponse an event stream needs; tests pass lighter objects. */
export interface SseSink {
  write(chunk: string): boolean;
  end(chunk?: string): unknown;
  destroy(): unknown;
  readonly writableLength: number;
  readonly writableEnded: boolean;
  readonly destroyed: boolean;
}

export const HEARTBEAT_CHUNK = ': hb\n\n';
/** Sent right after the headers so clients and proxies see the stream open before any event. */
export const OPEN_CHUNK = ': open\n\n';

export function eventChunk(event: string, data: unknown): string {
  // JSON.stringify never emits a raw newline, so one data line always suffices.
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function retryChunk(ms: number): string {
  return `retry: ${Math.max(0, Math.round(ms))}\n\n`;
}

export interface SseStreamsOptions {
  heartbeatMs: number;
  /**
   * A client that stops reading lets the server buffer whatever it writes; past this many queued
   * bytes its stream is cut, so one stuck tab cannot eat the per-stream memory budget.
   */
  maxBufferedBytes: number;
  /** Told whenever the number of open streams changes (the metrics gauge). */
  onSizeChange?(size: number): void;
}

/**
 * The set of open event streams. One heartbeat timer serves them all, so an open stream costs its
 * socket and a set entry, not a timer of its own.
 */
export class SseStreams<T extends SseSink = SseSink> {
  private readonly sinks = new Set<T>();
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(private readonly options: SseStreamsOptions) {
    if (!(options.heartbeatMs > 0)) throw new RangeError('heartbeatMs must be positive');
  }

  get size(): number {
    return this.sinks.size;
  }

  has(sink: T): boolean {
    return this.sinks.has(sink);
  }

  add(sink: T): void {
    if (this.sinks.has(sink)) return;
    this.sinks.add(sink);
    this.options.onSizeChange?.(this.sinks.size);
    if (this.heartbeat === null) {
      this.heartbeat = setInterval(() => this.beat(), this.options.heartbeatMs);
      this.heartbeat.unref();
    }
  }

  delete(sink: T): boolean {
    if (!this.sinks.delete(sink)) return false;
    this.options.onSizeChange?.(this.sinks.size);
    if (this.sinks.size === 0) this.stopHeartbeat();
    return true;
  }

  /** Writes to one stream; false when the stream is gone or was cut for not reading. */
  send(sink: T, chunk: string): boolean {
    if (sink.destroyed || sink.writableEnded) return false;
    if (sink.writableLength > this.options.maxBufferedBytes) {
      sink.destroy();
      return false;
    }
    sink.write(chunk);
    return true;
  }

  /** Ends every stream with a last chunk and forgets them all; returns the streams it ended. */
  endAll(finalChunk?: string): T[] {
    const ended = [...this.sinks];
    this.sinks.clear();
    this.stopHeartbeat();
    for (const sink of ended) {
      if (sink.destroyed || sink.writableEnded) continue;
      try {
        sink.end(finalChunk);
      } catch {
        sink.destroy();
      }
    }
    if (ended.length > 0) this.options.onSizeChange?.(0);
    return ended;
  }

  private beat(): void {
    for (const sink of this.sinks) this.send(sink, HEARTBEAT_CHUNK);
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }
}
