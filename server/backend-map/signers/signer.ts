import type { AuthMap, Scalar } from '../types.js';

/** What a signer sees of the session the call is made for. */
export interface SignedSession {
  token: string;
  userId: string;
  /** The login answer's values the map keeps (`auth.login.answer.keep`). */
  kept: Readonly<Record<string, string>>;
}

/** One call to the backend, as it stands before it is signed. */
export interface SigningInput {
  method: string;
  /** The backend's path, without the query string. */
  path: string;
  session: SignedSession;
  /** The map's `auth.signer.options`. */
  options: Readonly<Record<string, Scalar>>;
  /** Epoch ms. */
  now: number;
}

/** What a signature adds to a call: query parameters and headers, each set (replacing any of that name). */
export interface Signature {
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

/**
 * A per-call signature a backend requires, chosen by name in the map (`auth.signer.name`). Signers
 * are code, not JSON, because each backend's rule is its own small algorithm.
 */
export interface Signer {
  readonly name: string;
  /** Why this map cannot work with the signer (checked at start), or null. */
  check(auth: AuthMap, options: Readonly<Record<string, Scalar>>): string | null;
  /** The signature of one call; null for a path the backend does not check. */
  sign(input: SigningInput): Signature | null;
}
