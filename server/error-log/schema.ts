import { ErrorLogInputSchema, type ErrorLogInput } from '../contract/error-log.js';

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
 * Checks a body against the contract's ErrorLogInputSchema strictly. Fastify's shared Ajv coerces types
 * (123 becomes "123") and silently drops unknown properties, which would store whatever a
 * broken or hostile client sends; this route wants both refused, so it reads the same schema
 * object without either leniency. An over-long field is a size violation (413), like an
 * oversized body, rather than a malformed one.
 */
export function checkEntryBody(data: unknown): { value: ErrorLogInput } | { error: EntryValidationError } {
  const schema = ErrorLogInputSchema;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { error: new EntryValidationError('body must be a JSON object', false) };
  }
  const record = data as Record<string, unknown>;
  const properties: Record<string, StringProperty> = schema.properties as Record<string, StringProperty>;
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
