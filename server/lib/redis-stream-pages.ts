import type { Redis } from 'ioredis';

// Reading a Redis stream a chunk at a time, shared by the stores kept in streams (the audit
// trail, the error log) and the audit verifier: a long stream is never read in one answer.

/** One stream entry as XRANGE answers it: its id and its fields as name, value, name, value. */
export type StreamEntry = [id: string, fields: string[]];

/** The value of a field of a stream entry, null when it has none. */
export function streamField(fields: readonly string[], name: string): string | null {
  for (let i = 0; i < fields.length; i += 2) if (fields[i] === name) return fields[i + 1] ?? '';
  return null;
}

export interface StreamChunksOptions {
  /** Entries per round trip. */
  count: number;
  /** 'forward' (XRANGE, oldest first) or 'backward' (XREVRANGE, newest first). */
  direction: 'forward' | 'backward';
  /** Where to start: a stream id (inclusive) or `(id` (just past it); default the stream's near end. */
  from?: string;
}

/**
 * Yields the stream's entries a chunk at a time, in the direction asked. Each chunk is read only
 * once the one before has been taken, so a reader that stops early (a full page) reads no further;
 * each starts just past the last id read (an exclusive start).
 */
export async function* streamChunks(
  command: Redis,
  key: string,
  options: StreamChunksOptions,
): AsyncGenerator<StreamEntry[]> {
  const forward = options.direction === 'forward';
  let from = options.from ?? (forward ? '-' : '+');
  for (;;) {
    const chunk = (
      forward
        ? await command.xrange(key, from, '+', 'COUNT', options.count)
        : await command.xrevrange(key, from, '-', 'COUNT', options.count)
    ) as StreamEntry[];
    yield chunk;
    if (chunk.length < options.count) return;
    from = `(${chunk[chunk.length - 1]![0]}`;
  }
}
