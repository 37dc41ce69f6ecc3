import type { Envelope } from '../server/contract/index.js';
import { SUCCESS_CODE } from '../server/contract/index.js';

/**
 * A business refusal: answered as HTTP 200 with the code in the envelope, the way the chat
 * backend reports everything short of a crash.
 */
export class SandboxError extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** Extra detail in the envelope's data, e.g. which form field failed. */
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'SandboxError';
  }
}

export const MESSAGES = {
  loggedInElsewhere: 'Your account has logged in elsewhere, please log in again',
  loginExpired: 'Login expired, please log in again',
  noPermission: 'No permission for this operation',
  wrongCredentials: 'Wrong account or password',
} as const;

export const CODES = {
  unauthorized: 401,
  badRequest: 400,
  notFound: 404,
  wrongCredentials: 1001,
} as const;

export function ok<T>(data: T, msg = 'ok'): Envelope<T> {
  return { code: SUCCESS_CODE, msg, data };
}

export function badRequest(message: string): SandboxError {
  return new SandboxError(CODES.badRequest, message);
}
