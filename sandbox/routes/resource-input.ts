import type { FieldDef, FieldRule, ValidationCode } from '../../server/contract/index.js';
import { VALIDATION_MESSAGES_ZH, checkRules, graphemeCount, validateField } from '../../server/contract/index.js';
import { CODES, SandboxError } from '../errors.js';

/**
 * Reading a form or an action's inputs from a request body: the shared validation rules of the
 * contract, the backend's Chinese message of the first failing field in `msg` (what the UI shows
 * on the form), and values brought to their stored types.
 */

export interface FieldError {
  field: string;
  code: ValidationCode;
}

/** The contract's rules, plus what they leave to the backend: switches must be true or false, choice lists must hold options. */
function check(field: FieldDef, value: unknown): ValidationCode | null {
  if (field.kind === 'switch')
    return value === undefined || value === null || typeof value === 'boolean' ? null : 'notAnOption';
  const code = validateField(field, value);
  if (code) return code;
  if (field.kind === 'lines' && Array.isArray(value) && field.options) {
    if (value.some((v) => !field.options!.includes(String(v)))) return 'notAnOption';
  }
  if (field.kind === 'lines' && Array.isArray(value) && field.maxLength !== undefined) {
    if (value.some((v) => graphemeCount(String(v)) > field.maxLength!)) return 'tooLong';
  }
  if (
    (field.kind === 'number' || field.kind === 'bytes' || field.kind === 'money') &&
    value !== '' &&
    value !== null &&
    value !== undefined &&
    typeof value !== 'number'
  ) {
    // A number sent as text is read as one, but only when it is plainly a number.
    if (typeof value !== 'string' || !/^-?\d+(\.\d+)?$/.test(value.trim())) return 'notNumber';
  }
  if (
    field.kind === 'image' &&
    typeof value === 'string' &&
    value.trim() !== '' &&
    (/^\//.test(value) || /\.\.|[\s<>"]/.test(value))
  ) {
    return 'linkFormat';
  }
  return null;
}

export function refuse(errors: FieldError[]): SandboxError {
  const first = errors[0]!;
  return new SandboxError(CODES.badRequest, VALIDATION_MESSAGES_ZH[first.code], {
    field: first.field,
    errors: Object.fromEntries(errors.map((e) => [e.field, e.code])),
  });
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** The stored form of an accepted value. */
function convert(field: FieldDef, value: unknown): unknown {
  if (isBlank(value)) {
    if (field.kind === 'switch') return false;
    if (
      field.kind === 'number' ||
      field.kind === 'bytes' ||
      field.kind === 'money' ||
      field.kind === 'datetime' ||
      field.kind === 'date'
    )
      return null;
    if (field.kind === 'lines') return [];
    return '';
  }
  switch (field.kind) {
    case 'number':
    case 'bytes':
    case 'money':
      return Number(value);
    case 'datetime':
      return new Date(Date.parse(String(value))).toISOString();
    case 'lines': {
      // Blank lines are dropped; repeats are kept for free text (a bulk add reports them as skipped).
      const lines = (value as unknown[]).map((v) => String(v).trim()).filter((v) => v !== '');
      return field.options ? [...new Set(lines)] : lines;
    }
    case 'link':
    case 'ip':
    case 'image':
      return String(value).trim();
    case 'select':
      return String(value);
    default:
      return value;
  }
}

/**
 * Validates `body` against `fields` and answers the converted values of the fields present (all
 * of them with `complete`), or throws the refusal. `base` fills fields the body leaves out, so an
 * update may send only what changed; `rules` (between fields) are checked on base and body together.
 */
export function readFields(
  fields: readonly FieldDef[],
  body: Record<string, unknown>,
  options: { base?: Record<string, unknown>; keepEmptyPasswords?: boolean; rules?: readonly FieldRule[] } = {},
): Record<string, unknown> {
  const errors: FieldError[] = [];
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    const sent = Object.hasOwn(body, field.key);
    let value = sent ? body[field.key] : options.base?.[field.key];
    // A write-only secret left empty keeps the stored one.
    if (field.kind === 'password' && isBlank(value) && options.keepEmptyPasswords) {
      continue;
    }
    if (typeof value === 'string' && (field.kind === 'link' || field.kind === 'ip')) value = value.trim();
    const code = check(field, value);
    if (code) {
      errors.push({ field: field.key, code });
      continue;
    }
    if (sent || options.base === undefined) values[field.key] = convert(field, value);
  }
  if (errors.length > 0) throw refuse(errors);
  // The rules between fields hold for the record as it would be stored, not only what was sent.
  const breaches = checkRules(options.rules, { ...options.base, ...values });
  if (breaches.length > 0) throw refuse(breaches.map((b) => ({ field: b.field, code: 'exceedsField' })));
  return values;
}
