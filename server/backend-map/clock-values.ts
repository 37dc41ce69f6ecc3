import type { NowValue, TimeFormat } from './types.js';
import { formatTime, parseTime, type ValueCodec } from './values.js';

/**
 * Values of the clock: a time the gateway sends (a mute's end, now plus a year), and a switch the
 * backend keeps as a time (muted while the mute's end is later than now). Both read the clock when
 * the call is made or answered, never at start.
 */

/** `value` as the backend writes it at `now` (ms). */
export function nowValue(value: NowValue, now: number, offset: number): string | number {
  return formatTime(now + (value.plusSeconds ?? 0) * 1000, value.format, offset);
}

/**
 * A switch kept as a time: true while the backend's time is later than now; a value that is no
 * time in the format (null, 0, -2 for "never") is false. The console cannot set it by sending
 * true or false (the backend needs a time, an action's `now` sends one): it is never sent back,
 * so a filter or a form over it reaches the backend as nothing.
 */
export function futureCodec(format: TimeFormat, offset: number, clock: () => number = Date.now): ValueCodec {
  return {
    toBackend: () => undefined,
    fromBackend: (v) => {
      const ms = parseTime(v, format, offset);
      return ms !== null && ms > clock();
    },
  };
}
