import { ERROR_LOG_LIMITS, type ErrorLogInput } from '../contract/gateway.js';

/** What POST /api/error-log accepts. */
export const errorLogBodySchema = {
  type: 'object',
  required: ['message', 'url'],
  additionalProperties: false,
  properties: {
    message: { type: 'string', maxLength: ERROR_LOG_LIMITS.maxMessageChars },
    stack: { type: 'string', maxLength: ERROR_LOG_LIMITS.maxStackChars },
    url: { type: 'string', maxLength: ERROR_LOG_LIMITS.maxUrlChars },
    info: { type: 'string', maxLength: ERROR_LOG_LIMITS.maxInfoChars },
  },
} as const;

/** What GET /api/error-log accepts; times are ISO 8601 dates or date-times. */
export const errorLogQuerySchema = {
  type: 'object',
  properties: {
    pageNum: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 },
    pageSize: { type: 'integer', minimum: 1, maximum: ERROR_LOG_LIMITS.pageSizeMax, default: 20 },
    keyword: { type: 'string', maxLength: 200 },
    since: { type: 'string', maxLength: 40 },
    until: { type: 'string', maxLength: 40 },
  },
} as const;

export interface ErrorLogQueryString {
  pageNum: number;
  pageSize: number;
  keyword?: string;
  since?: string;
  until?: string;
}

/** A body that breaks the schema; `tooLarge` when only a length limit was crossed. */
export class EntryValidationError extends Error {
  readonly statusCode: number;
  constructor(
    message: string,
    readonly tooLarge: boolean,
  ) {
    super(message);
    this.name = 'EntryValidationError';
    this.statusCode = tooLarge ? 413 : 400;
  }
}

type StringProperty = { readonly type: 'string'; readonly maxLength: number };

/**
 * Checks a body against errorLogBodySchema strictly. Fastify's shared Ajv coerces types
 * (123 becomes "123") and silently drops unknown properties, which would store whatever a
 * broken or hostile client sends; this route wants both refused, so it reads the same schema
 * object without either leniency. An over-long field is a size violation (413), like an
 * oversized body, rather than a malformed one.
 */
export function checkEntryBody(data: unknown): { value: ErrorLogInput } | { error: EntryValidationError } {
  const schema = errorLogBodySchema;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { error: new EntryValidationError('body must be a JSON object', false) };
  }
  const record = data as Record<string, unknown>;
  const properties: Record<string, StringProperty> = schema.properties;
  for (const key of Object.keys(record)) {
    if (!Object.hasOwn(properties, key))
      return { error: new EntryValidationError(`body has an unknown property "${key}"`, false) };
  }
  for (const key of schema.required) {
    if (record[key] === undefined)
      return { error: new EntryValidationError(`body must have property "${key}"`, false) };
  }
  for (const [key, rule] of Object.entries(properties)) {
    const value = record[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') return { error: new EntryValidationError(`body/${key} must be a string`, false) };
    if (value.length > rule.maxLength) {
      return { error: new EntryValidationError(`body/${key} is longer than ${rule.maxLength} characters`, true) };
    }
  }
  const { message, stack, url, info } = record as unknown as ErrorLogInput;
  // Rebuilt field by field so nothing but the four known properties can reach the file.
  const value: ErrorLogInput = { message, url };
  if (stack !== undefined) value.stack = stack;
  if (info !== undefined) value.info = info;
  return { value };
}
