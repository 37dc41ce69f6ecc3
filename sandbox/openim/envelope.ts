/**
 * OpenIM's answer envelope and refusals (tools `apiresp/resp.go`, `errs/predefine.go`; chat
 * `pkg/eerrs/predefine.go`). Every answer is HTTP 200 with `{errCode, errMsg, errDlt, data?}`.
 */

export const OPENIM_CODES = {
  internal: 500,
  args: 1001,
  noPermission: 1002,
  duplicateKey: 1003,
  recordNotFound: 1004,
  tokenExpired: 1501,
  tokenMalformed: 1503,
  tokenUnknown: 1505,
  imTokenNotExist: 1507,
  dismissedAlready: 1204,
  password: 20001,
  accountNotFound: 20002,
  phoneAlreadyRegister: 20003,
  accountAlreadyRegister: 20004,
  emailAlreadyRegister: 20014,
  tokenNotExist: 20101,
} as const;

/** The CodeError names OpenIM writes in errMsg, by code. */
const NAMES: Readonly<Record<number, string>> = {
  500: 'ServerInternalError',
  1001: 'ArgsError',
  1002: 'NoPermissionError',
  1003: 'DuplicateKeyError',
  1004: 'RecordNotFoundError',
  1501: 'TokenExpiredError',
  1503: 'TokenMalformedError',
  1504: 'TokenNotValidYetError',
  1505: 'TokenUnknownError',
  1507: 'TokenNotExistError',
  1204: 'DismissedAlreadyError',
  20001: 'PasswordError',
  20002: 'AccountNotFound',
  20003: 'PhoneAlreadyRegister',
  20004: 'AccountAlreadyRegister',
  20014: 'EmailAlreadyRegister',
  20101: 'ErrTokenNotExist',
};

export interface OpenImAnswer {
  errCode: number;
  errMsg: string;
  errDlt: string;
  data?: unknown;
}

/** A refusal as OpenIM's CodeError carries it: the code, its name, and the detail text. */
export class OpenImError extends Error {
  constructor(
    readonly code: number,
    readonly detail: string,
    /** A plain (non-CodeError) error: its text goes to errMsg and errDlt stays empty. */
    readonly plain = false,
  ) {
    super(detail);
    this.name = 'OpenImError';
  }

  answer(): OpenImAnswer {
    if (this.plain) return { errCode: OPENIM_CODES.internal, errMsg: this.detail, errDlt: '' };
    const name = NAMES[this.code] ?? 'ServerInternalError';
    // A bare `.Wrap()` has no detail; ParseError then writes the error's own text, which starts with the name.
    return { errCode: this.code, errMsg: name, errDlt: this.detail || name };
  }
}

export const argsError = (detail: string) => new OpenImError(OPENIM_CODES.args, detail);
export const notFound = (detail = '') => new OpenImError(OPENIM_CODES.recordNotFound, detail);
export const duplicateKey = (detail = '') => new OpenImError(OPENIM_CODES.duplicateKey, detail);
export const noPermission = (detail = '') => new OpenImError(OPENIM_CODES.noPermission, detail);

/** Success: `data` is left out for an answer message without fields (`undefined` here), as isAllFieldsPrivate does. */
export function success(data: unknown): OpenImAnswer {
  return data === undefined ? { errCode: 0, errMsg: '', errDlt: '' } : { errCode: 0, errMsg: '', errDlt: '', data };
}

/**
 * A Mongo failure (duplicate key on a unique index, say) reaches the API as a plain error: 500
 * with its text, the way the dialect writes every non-CodeError.
 */
export const mongoError = (text: string) => new OpenImError(OPENIM_CODES.internal, text, true);
