import { VALIDATION_MESSAGES_ZH, validateField, type FieldDef, type ValidationCode } from '#contract';
import { localInputDateTime } from '../lib/format.js';
import { moneyInputText, parseMoney } from './money.js';

/**
 * What an input holds (text, a checkbox, a set of options) versus what the backend stores
 * (numbers, the smallest money unit, ISO times, string lists). Pure, so the round trip is tested.
 */

const VALIDATION_CODES: Readonly<Record<string, unknown>> = VALIDATION_MESSAGES_ZH;

export type DraftValue = string | boolean | string[];
export type Draft = Record<string, DraftValue>;

/** Lines with options are a set of checkboxes; without, a textarea of one entry per line. */
export const isChoiceList = (field: FieldDef) => field.kind === 'lines' && !!field.options;

export function toLocalInput(value: unknown): string {
  if (typeof value !== 'string' && typeof value !== 'number') return '';
  return localInputDateTime(value);
}

export function fromLocalInput(text: string): string | null {
  if (!text) return null;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export function draftValue(field: FieldDef, value: unknown): DraftValue {
  switch (field.kind) {
    case 'switch':
      return value === true;
    case 'money':
      return moneyInputText(value);
    case 'password':
      // Write-only: the form never shows the stored secret.
      return '';
    case 'datetime':
      return toLocalInput(value);
    case 'lines': {
      const list = Array.isArray(value) ? value.map(String) : [];
      return isChoiceList(field) ? list : list.join('\n');
    }
    default:
      return value === null || value === undefined ? '' : String(value);
  }
}

export function draftFromRecord(fields: readonly FieldDef[], record: Record<string, unknown> = {}): Draft {
  const draft: Draft = {};
  for (const f of fields) draft[f.key] = draftValue(f, record[f.key]);
  return draft;
}

/** undefined = leave the key out of the request (an empty write-only secret). */
type Parsed = { value: unknown } | { error: ValidationCode };

export function parseDraftValue(field: FieldDef, raw: DraftValue | undefined): Parsed {
  switch (field.kind) {
    case 'switch':
      return { value: raw === true };
    case 'lines': {
      if (Array.isArray(raw)) return { value: raw };
      const text = typeof raw === 'string' ? raw : '';
      return {
        value: text
          .split(/\r?\n/)
          .map((s) => s.trim())
          .filter(Boolean),
      };
    }
    case 'number':
    case 'bytes': {
      const text = typeof raw === 'string' ? raw.trim() : '';
      if (text === '') return { value: null };
      const n = Number(text);
      return Number.isFinite(n) ? { value: n } : { error: 'notNumber' };
    }
    case 'money': {
      const text = typeof raw === 'string' ? raw.trim() : '';
      if (text === '') return { value: null };
      const cents = parseMoney(text);
      if (cents !== null) return { value: cents };
      // An amount with too many decimals is a different mistake from text that is no number.
      return { error: /^[+-]?[\d,]*\.\d{3,}$/.test(text) ? 'moneyDecimals' : 'notNumber' };
    }
    case 'datetime': {
      const text = typeof raw === 'string' ? raw : '';
      if (text === '') return { value: null };
      const iso = fromLocalInput(text);
      return iso ? { value: iso } : { error: 'dateFormat' };
    }
    default: {
      const text = typeof raw === 'string' ? raw : '';
      // Links and addresses are compared without stray spaces around them.
      return { value: field.kind === 'link' || field.kind === 'ip' ? text.trim() : text };
    }
  }
}

/**
 * The shared rules, plus the two the contract leaves to each side (as the sandbox backend does):
 * a switch is any boolean (validateField would call `false` missing), and every line of a list
 * keeps the length limit.
 */
export function checkValue(field: FieldDef, value: unknown): ValidationCode | null {
  if (field.kind === 'switch') return null;
  const code = validateField(field, value === null ? '' : value);
  if (code) return code;
  if (field.kind === 'lines' && Array.isArray(value) && field.maxLength !== undefined && value.some((v) => String(v).length > field.maxLength!)) {
    return 'tooLong';
  }
  return null;
}

/** Field errors a refusal carries in `data.errors` ({field: code}), when the backend sends them. */
export function serverFieldErrors(data: unknown, fields: readonly FieldDef[]): Record<string, ValidationCode> {
  const errors = (data as { errors?: unknown } | null | undefined)?.errors;
  if (!errors || typeof errors !== 'object') return {};
  const out: Record<string, ValidationCode> = {};
  for (const f of fields) {
    const code = (errors as Record<string, unknown>)[f.key];
    if (typeof code === 'string' && code in VALIDATION_CODES) out[f.key] = code as ValidationCode;
  }
  return out;
}

export interface DraftOutcome {
  values: Record<string, unknown>;
  errors: Record<string, ValidationCode>;
}

/**
 * Turns a draft into the request body and validates it with the shared rules. An empty password
 * is left out (it keeps the old value) unless the field is required, e.g. a new account's.
 */
export function recordFromDraft(fields: readonly FieldDef[], draft: Draft): DraftOutcome {
  const values: Record<string, unknown> = {};
  const errors: Record<string, ValidationCode> = {};
  for (const field of fields) {
    const parsed = parseDraftValue(field, draft[field.key]);
    if ('error' in parsed) {
      errors[field.key] = parsed.error;
      continue;
    }
    if (field.kind === 'password' && parsed.value === '' && !field.required) continue;
    const code = checkValue(field, parsed.value);
    if (code) errors[field.key] = code;
    values[field.key] = parsed.value;
  }
  return { values, errors };
}

/** Two drafts hold the same values (the dirty check of a settings form). */
export function sameDraft(a: Draft, b: Draft): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const x = a[k];
    const y = b[k];
    if (Array.isArray(x) || Array.isArray(y)) {
      if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length || x.some((v, i) => v !== y[i])) return false;
    } else if (x !== y) return false;
  }
  return true;
}
