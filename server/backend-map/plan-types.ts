import type { TimeFormat } from './time-format.js';

/**
 * The members of a call that reach beyond one request built from the console's parameters: values
 * of the session and of the clock, a read before a save, and one request per id or per generated
 * code (plan.ts). Kept apart from types.ts so the call's own members stay in one place there.
 */

/** A backend parameter set to the time the call is made. */
export interface NowValue {
  format: TimeFormat;
  /** Seconds added to now (a mute's end a year ahead); default 0. */
  plusSeconds?: number;
}

/** Codes made afresh for each of a repeated call's requests. */
export interface RepeatMap {
  /** The console's parameter that says how many requests to send (1 to `max`). */
  count: string;
  max: number;
  /** The backend parameter each request carries its code in, and how the code is made. */
  code: { param: string; length: number; chars: string };
}

export interface CallPlanMap {
  /**
   * Backend parameters taken from the session: "userId" (the login answer's user id) or a name
   * `auth.login.answer.keep` keeps. A template places them as "{param}".
   */
  session?: Record<string, string>;
  /** Backend parameters set to the time of the call. */
  now?: Record<string, NowValue>;
  /**
   * "config": the settings save replaces the backend's whole record, so the gateway first reads
   * it with the resource's config call and sends it back with the console's changes over it.
   */
  merge?: 'config';
  /** The backend takes one id per call: a delete or a selection is sent once per id, as `{id}`. */
  each?: true;
  /** The call is sent `count` times, each with a code the gateway makes (a batch of invitation codes). */
  repeat?: RepeatMap;
}

/**
 * The backend's clock, asked before each login, for a backend that refuses a signature whose time
 * is off (Shiku: ±180 s): the difference is kept in the session and added to every later time.
 */
export interface ClockMap {
  /** An open call answering the backend's time (sent without credentials). */
  path: string;
  method?: 'GET' | 'POST';
  /** Where the time is in the answer. */
  at: string;
  format: 'epoch-millis' | 'epoch-seconds';
}
