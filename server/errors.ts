/**
 * The gateway's error catalogue. Every error the gateway itself answers comes from here, in the
 * backend's envelope {code, msg} plus a stable `error` name. docs/gateway.md documents each name, and a
 * test keeps the two in step.
 */
export interface GatewayErrorSpec {
  status: number;
  msg: string;
}

export const GATEWAY_ERRORS = {
  UPSTREAM_UNREACHABLE: { status: 502, msg: 'The chat backend cannot be reached' },
  UPSTREAM_TIMEOUT: { status: 504, msg: 'The chat backend did not answer in time' },
  UPSTREAM_BAD_ANSWER: { status: 502, msg: 'The chat backend sent an answer the gateway cannot use' },
  DECODE_FAILED: { status: 502, msg: 'The chat backend sent an encrypted answer that cannot be decoded' },
  DECODE_TOO_LARGE: { status: 502, msg: 'The chat backend sent an answer larger than the decode limit' },
  BODY_TOO_LARGE: { status: 413, msg: 'The request body is too large' },
  UPLOAD_TOO_LARGE: { status: 413, msg: 'The file is larger than this console accepts for its kind' },
  UPLOAD_TYPE_REFUSED: { status: 415, msg: 'The file is not of a type this console accepts for its kind' },
  UPLOAD_QUOTA_EXCEEDED: {
    status: 429,
    msg: 'This account has uploaded as many files or bytes as it may today (UTC): try again tomorrow',
  },
  BAD_REQUEST: { status: 400, msg: 'The request is malformed' },
  LINK_TOO_LONG: { status: 400, msg: 'A link is longer than the console accepts (2048 characters)' },
  INVALID_VALUE: { status: 400, msg: 'A value breaks the rules of its field' },
  UNAUTHORIZED: { status: 401, msg: 'A valid bearer token is required' },
  METHOD_NOT_ALLOWED: { status: 405, msg: 'This method is not allowed here' },
  REQUEST_TIMEOUT: { status: 408, msg: 'The request did not arrive in time' },
  EXPECTATION_FAILED: { status: 417, msg: 'The gateway meets no expectation but 100-continue' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, msg: 'This content type is not accepted here' },
  HEADERS_TOO_LARGE: { status: 431, msg: 'The request headers are too large' },
  MISDIRECTED_REQUEST: { status: 421, msg: 'This console does not answer for that host name' },
  CROSS_ORIGIN: { status: 403, msg: 'Cross-origin requests are refused' },
  NOT_LOGGED_IN: { status: 401, msg: 'Not logged in' },
  AUTHENTICATOR_NEEDED: {
    status: 403,
    msg: 'This account must bind an authenticator on the chat backend before it may log in',
  },
  FORBIDDEN: { status: 403, msg: 'This session lacks the permission for this call' },
  NOT_FOUND: { status: 404, msg: 'No such endpoint' },
  BACKEND_NO_SUCH_CALL: { status: 404, msg: 'The chat backend has no such call' },
  UNSUPPORTED_BY_BACKEND: {
    status: 404,
    msg: 'The chat backend does not offer this (the backend map marks it unsupported)',
  },
  RATE_LIMITED: { status: 429, msg: 'Too many requests; try again shortly' },
  SAME_APPROVER: {
    status: 403,
    msg: 'The administrator who made this call cannot also confirm it: a second administrator must',
  },
  APPROVAL_EXPIRED: {
    status: 410,
    msg: 'This held call waited too long for a second approver and can no longer be confirmed',
  },
  APPROVAL_NOT_FOUND: { status: 404, msg: 'No such held call: it was confirmed, declined or has expired' },
  APPROVAL_CONFLICT: { status: 409, msg: 'A held call on the same records is pending or being confirmed' },
  TOO_MANY_HOLDS: {
    status: 429,
    msg: 'Too many of your held calls wait for a second approver: have some confirmed or declined first',
  },
  APPROVALS_UNAVAILABLE: {
    status: 503,
    msg: 'Held calls cannot be shared now (Redis is unavailable): try again shortly',
  },
  SAVED_VIEWS_FULL: {
    status: 409,
    msg: 'This list already has as many saved views as an administrator may keep: delete one first',
  },
  SAVED_VIEW_NOT_FOUND: { status: 404, msg: 'No saved view of that name' },
  SAVED_VIEWS_UNAVAILABLE: {
    status: 503,
    msg: 'Saved views cannot be reached now (Redis is unavailable): try again shortly',
  },
  SHUTTING_DOWN: { status: 503, msg: 'The gateway is shutting down' },
  NOT_READY: { status: 503, msg: 'The chat backend is not reachable' },
  INTERNAL: { status: 500, msg: 'The gateway failed unexpectedly' },
  // Never answered: the gateway stops at start with it (exit 78), so the status is only nominal.
  SANDBOX_NOT_BUILT: {
    status: 503,
    msg: 'This gateway was built without the sandbox backend (SANDBOX=0): set CHAT_BACKEND_URL to the chat backend',
  },
} as const satisfies Record<string, GatewayErrorSpec>;

export type GatewayErrorName = keyof typeof GATEWAY_ERRORS;

export interface GatewayErrorBody {
  code: number;
  msg: string;
  error: GatewayErrorName;
  /** Details a client acts on, e.g. `{retryAfterSeconds}` of a throttled login. */
  data?: unknown;
}

export class GatewayError extends Error {
  readonly status: number;
  readonly errorName: GatewayErrorName;
  readonly data: unknown;
  constructor(name: GatewayErrorName, detail?: string, options?: { cause?: unknown; data?: unknown }) {
    const spec = GATEWAY_ERRORS[name];
    super(detail ? `${spec.msg}: ${detail}` : spec.msg, options);
    this.name = 'GatewayError';
    this.status = spec.status;
    this.errorName = name;
    this.data = options?.data;
  }
  toBody(): GatewayErrorBody {
    const body = errorBody(this.errorName, this.message);
    return this.data === undefined ? body : { ...body, data: this.data };
  }
}

export function errorBody(name: GatewayErrorName, msg?: string): GatewayErrorBody {
  const spec = GATEWAY_ERRORS[name];
  return { code: spec.status, msg: msg ?? spec.msg, error: name };
}
