import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/**
 * How Shiku IM writes its answers (docs/dialects/shiku-im.md §1, §2): the JSONMessage envelope,
 * its lists, its error codes, ObjectId ids, money in yuan and times in epoch seconds.
 */

export type Row = Record<string, unknown>;

export const RESULT = {
  success: 1,
  failure: 0,
  missingToken: 1030101,
  badToken: 1030102,
  badParameter: 1010101,
  internal: 1020101,
} as const;

/** The zh texts of Shiku's error-message table (resources/data/message.json) and handlers. */
export const TEXT = {
  missingToken: '缺少访问令牌',
  badToken: '访问令牌过期或无效',
  badSignature: '授权认证失败',
  badParameter: '请求参数验证失败，缺少必填参数或参数错误',
  internal: '接口内部异常',
  noPermission: '权限不足',
  /** AC login line 677: an account other than "1000" without a Google secret. */
  bindGoogle: '请绑定谷歌验证后使用',
} as const;

/** Shiku's JSONMessage: null fields are left out (fastjson without WriteMapNullValue). */
export function message(resultCode: number, now: number, resultMsg?: string | null, data?: unknown): Row {
  const out: Row = { resultCode };
  if (resultMsg !== undefined && resultMsg !== null) out.resultMsg = resultMsg;
  if (data !== undefined && data !== null) out.data = stripNulls(data);
  out.currentTime = now;
  return out;
}

export const success = (now: number, data?: unknown) => message(RESULT.success, now, null, data);
/** `JSONMessage.success(String)`: the text lands in resultMsg, not data. */
export const successText = (now: number, text: string) => message(RESULT.success, now, text);
export const failure = (now: number, text: string) => message(RESULT.failure, now, text);

/** `JSONMessage.success(PageResult)`: rows in data, count and the money total beside it. */
export function pageResult(now: number, rows: Row[], count: number, total = 0): Row {
  return { ...message(RESULT.success, now, null, rows), count, total };
}

/** Shiku's PageVO (sensitive words): 0-based pageIndex, pageCount derived from total and pageSize. */
export function pageVo(rows: Row[], total: number, pageIndex: number, pageSize: number, allPageCount?: number): Row {
  const pageCount = pageSize > 0 ? Math.floor(total / pageSize) + (total % pageSize > 0 ? 1 : 0) : 0;
  return {
    pageData: rows,
    total,
    pageIndex,
    pageSize,
    pageCount,
    ...(allPageCount === undefined ? {} : { allPageCount }),
  };
}

/** The answer ExceptionHandlerAdvice writes for any exception: no currentTime, detailMsg always present. */
export function exceptionAnswer(resultCode: number, resultMsg: string, detailMsg = ''): Row {
  return { resultCode, resultMsg, detailMsg };
}

function stripNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripNulls);
  if (typeof value !== 'object' || value === null) return value;
  const out: Row = {};
  for (const [key, v] of Object.entries(value)) if (v !== null && v !== undefined) out[key] = stripNulls(v);
  return out;
}

export function md5hex(text: string): string {
  return createHash('md5').update(text, 'utf8').digest('hex');
}

/** Fen to Shiku's yuan Double. */
export const yuan = (fen: number): number => Math.round(fen) / 100;

/** ISO text to Shiku's epoch seconds. */
export function seconds(isoText: string | null | undefined): number | undefined {
  if (!isoText) return undefined;
  const ms = Date.parse(isoText);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/**
 * Our records have small numeric ids; Shiku's have Mongo ObjectIds. The sandbox writes a real-looking
 * one (4 bytes of creation time, 4 bytes naming the table, 4 bytes of our id) so it reads back exactly.
 */
export const TABLES = {
  room: 'a1c00001',
  consume: 'a1c00002',
  keyword: 'a1c00003',
  inviteCode: 'a1c00004',
  redPacket: 'a1c00005',
  groupRedPacket: 'a1c00006',
  role: 'a1c00007',
  bankCard: 'a1c00008',
  report: 'a1c00009',
  website: 'a1c0000a',
  apiLog: 'a1c0000b',
} as const;
export type Table = keyof typeof TABLES;

export function objectId(table: Table, id: number, createdIso: string | null | undefined): string {
  const time = seconds(createdIso) ?? 0;
  return `${time.toString(16).padStart(8, '0').slice(-8)}${TABLES[table]}${id.toString(16).padStart(8, '0')}`;
}

/** `new ObjectId(text)` throws on anything but 24 hex digits: that is an internal exception in Shiku. */
export function parseObjectId(table: Table, text: string): number | null {
  if (!/^[0-9a-fA-F]{24}$/.test(text))
    throw new InternalError(`invalid hexadecimal representation of an ObjectId: [${text}]`);
  const lower = text.toLowerCase();
  if (lower.slice(8, 16) !== TABLES[table]) return null;
  return parseInt(lower.slice(16), 16);
}

/** A missing required parameter: Spring's MissingServletRequestParameterException → 1010101. */
export class MissingParameter extends Error {}
/**
 * A ServiceException a handler does not catch: ExceptionHandlerAdvice answers resultCode 0 with its
 * message and an empty detailMsg (no currentTime).
 */
export class ServiceError extends Error {}
/** Anything else that escapes a handler (a type mismatch, a null record): → 1020101 with detailMsg. */
export class InternalError extends Error {}

/** Query and form parameters as `getParameter` sees them: the query's value first. */
export function parameters(request: FastifyRequest): Map<string, string> {
  const out = new Map<string, string>();
  const add = (source: unknown) => {
    if (typeof source !== 'object' || source === null) return;
    for (const [key, value] of Object.entries(source as Row)) {
      if (out.has(key)) continue;
      const first = Array.isArray(value) ? value[0] : value;
      if (first !== undefined && first !== null && typeof first !== 'object') out.set(key, String(first));
    }
  };
  add(request.query);
  // getParameter sees form fields, never a JSON body.
  if (String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) add(request.body);
  return out;
}

/** Spring's @RequestParam binding over the request's parameters. */
export class Params {
  constructor(readonly values: Map<string, string>) {}

  has(name: string): boolean {
    return this.values.has(name);
  }

  /** `@RequestParam(defaultValue = ...) String`: an empty value takes the default too. */
  str(name: string, fallback = ''): string {
    const value = this.values.get(name);
    return value === undefined || value === '' ? fallback : value;
  }

  /** `@RequestParam String` without default: absent → 1010101. */
  requiredStr(name: string): string {
    const value = this.values.get(name);
    if (value === undefined) throw new MissingParameter(`Required String parameter '${name}' is not present`);
    return value;
  }

  /** `@RequestParam int`: absent → 1010101 unless defaulted; not a number → a type mismatch (1020101). */
  int(name: string, fallback?: number): number {
    const value = this.values.get(name);
    if (value === undefined || value.trim() === '') {
      if (fallback !== undefined) return fallback;
      throw new MissingParameter(`Required int parameter '${name}' is not present`);
    }
    if (!/^[-+]?\d+$/.test(value.trim()) || !Number.isSafeInteger(Number(value.trim())))
      throw new InternalError(
        `Failed to convert value of type 'java.lang.String' to required type 'int'; nested exception is java.lang.NumberFormatException: For input string: "${value}"`,
      );
    return Number(value.trim());
  }

  /** An optional `Integer` without default: null when absent. */
  optionalInt(name: string): number | null {
    const value = this.values.get(name);
    return value === undefined || value.trim() === '' ? null : this.int(name);
  }
}

/** `startDate`/`endDate` as `yyyy-MM-dd` (China time, the server's zone); the end day is included. */
export function dayRange(params: Params): { from: number; to: number } | null {
  const start = params.str('startDate');
  const end = params.str('endDate');
  if (start === '' || end === '') return null;
  const day = (text: string) => {
    const m = /^(\d{4})-(\d{1,2})-(\d{1,2})/.exec(text);
    if (!m) throw new InternalError(`Unparseable date: "${text}"`);
    return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!) - 8 * 3_600_000;
  };
  // greaterThan(start) and lessThanOrEq(end + 1 day), in seconds.
  return { from: day(start) / 1000, to: day(end) / 1000 + 86_400 };
}

/** `pageFindOption(page, limit, 1)`: skip (page-1)*limit; a negative skip is refused by MongoDB; limit 0 means all. */
export function pageOf<T>(rows: readonly T[], page: number, limit: number): T[] {
  const skip = (page - 1) * limit;
  if (skip < 0)
    throw new InternalError(
      "Query failed with error code 2 and error message 'skip value must be non-negative, but received: " + skip + "'",
    );
  return limit === 0 ? rows.slice(skip) : rows.slice(skip, skip + Math.abs(limit));
}
