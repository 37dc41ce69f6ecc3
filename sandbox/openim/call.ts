import type { OpenImBody } from './request.js';
import type { OpenImState } from './state.js';

/** One OpenIM call as the dialect's handlers see it, and the route table's rows. */

/**
 * Who may call: `none` (no middleware), `admin` (`mw.CheckAdmin`), `token` (`mw.CheckToken`, any
 * token type), `im` (OpenIM Server's `GinParseToken`: one of its own tokens, the `imToken`).
 */
export type OpenImGuard = 'none' | 'admin' | 'token' | 'im';

export interface OpenImCall {
  state: OpenImState;
  body: OpenImBody;
  /** The caller's user id from the token; '' for unguarded calls. */
  userID: string;
  now: number;
  /** The caller's address, as OpenIM's `GetClientIP` reads it (registrations record it). */
  ip: string;
}

/**
 * A failure OpenIM never answers: the handler returns without writing (`AddUserAccount` on a
 * failed registration), so gin sends HTTP 200 with an empty body.
 */
export class UnansweredError extends Error {
  constructor(override readonly cause: unknown) {
    super('unanswered');
    this.name = 'UnansweredError';
  }
}

export interface OpenImRoute {
  path: string;
  guard: OpenImGuard;
  /** The answer's `data`; undefined for answers without fields (data left out). */
  handle(call: OpenImCall): unknown;
}
