import {
  VALIDATION_MESSAGES_ZH,
  checkRules,
  graphemeCount,
  validateField,
  type FieldDef,
  type FieldRule,
  type ValidationCode,
} from '#contract';
import { localInputDateTime } from '../../lib/format.js';
import { localeOf, type Language } from '../../lib/language.js';
import { moneyInputText, readMoney } from '../shared/money.js';

/**
 * What an input holds (text, a checkbox, a set of options) versus what the backend stores
 * (numbers, the smallest money unit, ISO times, string lists). Pure, so the round trip is tested.
 * Amounts are written and read the way the reader's language (`lang`) writes numbers.
 */

const VALIDATION_CODES: Readonly<Record<string, unknown>> = VALIDATION_MESSAGES_ZH;

/**
 * The shared rules' codes, plus two of the console's own about how the reader's language writes an
 * amount: the backend gets a whole number of the smallest unit and never sees these.
 */
export type FieldErrorCode = ValidationCode | 'moneyDecimalMark' | 'moneyAmbiguous';

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

export function draftValue(field: FieldDef, value: unknown, lang: Language = 'en'): DraftValue {
  switch (field.kind) {
    case 'switch':
      return value === true;
    case 'money':
      return moneyInputText(value, lang);
    case 'number':
      // A number with decimals is written with the reader's decimal mark (1,5 in Spanish), as it is read back.
      return field.decimals !== undefined && typeof value === 'number' && Number.isFinite(value)
        ? decimalText(value, lang)
        : value === null || value === undefined
          ? ''
          : String(value);
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

/** A form's draft: the record's values, or for a new record (none) its fields' starting values. */
export function draftFromRecord(
  fields: readonly FieldDef[],
  record?: Record<string, unknown>,
  lang: Language = 'en',
  now: () => number = Date.now,
): Draft {
  const draft: Draft = {};
  for (const f of fields) {
    const value = record === undefined && f.defaultNow ? new Date(now()).toISOString() : record?.[f.key];
    draft[f.key] = draftValue(f, value, lang);
  }
  return draft;
}

/** undefined = leave the key out of the request (an empty write-only secret). */
type Parsed = { value: unknown } | { error: FieldErrorCode };

export function parseDraftValue(field: FieldDef, raw: DraftValue | undefined, lang: Language = 'en'): Parsed {
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
      if (field.decimals !== undefined) {
        // Read as an amount is (the reader's marks, at most two decimals): 1,5 in Spanish is 1.5.
        const reading = readMoney(text, lang);
        return 'cents' in reading ? { value: reading.cents / 100 } : { error: reading.problem };
      }
      const n = Number(text);
      return Number.isFinite(n) ? { value: n } : { error: 'notNumber' };
    }
    case 'money': {
      const text = typeof raw === 'string' ? raw.trim() : '';
      if (text === '') return { value: null };
      const reading = readMoney(text, lang);
      return 'cents' in reading ? { value: reading.cents } : { error: reading.problem };
    }
    case 'datetime': {
      const text = typeof raw === 'string' ? raw : '';
      if (text === '') return { value: null };
      const iso = fromLocalInput(text);
      return iso ? { value: iso } : { error: 'dateFormat' };
    }
    default: {
      const text = typeof raw === 'string' ? raw : '';
      // Text is sent without the spaces around it (a name of only spaces is then empty, and
      // refused where required); a password is sent exactly as typed.
      return { value: field.kind === 'password' ? text : text.trim() };
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
  if (
    field.kind === 'lines' &&
    Array.isArray(value) &&
    field.maxLength !== undefined &&
    value.some((v) => graphemeCount(String(v)) > field.maxLength!)
  ) {
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

/** The field a refusal's `exceedsField` names as the limit (`data.limit` beside `data.field`), when it does. */
export function serverFieldLimit(data: unknown): Record<string, string> {
  const { field, limit } = (data ?? {}) as { field?: unknown; limit?: unknown };
  return typeof field === 'string' && typeof limit === 'string' ? { [field]: limit } : {};
}

export interface DraftOutcome {
  values: Record<string, unknown>;
  errors: Record<string, FieldErrorCode>;
  /** For an `exceedsField` error: the field it must not be more than. */
  limits: Record<string, string>;
}

/**
 * Turns a draft into the request body and validates it with the shared rules. An empty password
 * is left out (it keeps the old value) unless the field is required, e.g. a new account's.
 */
export function recordFromDraft(
  fields: readonly FieldDef[],
  draft: Draft,
  lang: Language = 'en',
  rules: readonly FieldRule[] = [],
): DraftOutcome {
  const values: Record<string, unknown> = {};
  const errors: Record<string, FieldErrorCode> = {};
  const limits: Record<string, string> = {};
  for (const field of fields) {
    const parsed = parseDraftValue(field, draft[field.key], lang);
    if ('error' in parsed) {
      errors[field.key] = parsed.error;
      continue;
    }
    if (field.kind === 'password' && parsed.value === '' && !field.required) continue;
    const code = checkValue(field, parsed.value);
    if (code) errors[field.key] = code;
    values[field.key] = parsed.value;
  }
  // The rules between fields, once each of their values reads; an error of its own stays first.
  for (const breach of checkRules(rules, values)) {
    if (errors[breach.field] || errors[breach.limit]) continue;
    errors[breach.field] = 'exceedsField';
    limits[breach.field] = breach.limit;
  }
  return { values, errors, limits };
}

const decimalFormats = new Map<Language, Intl.NumberFormat>();

/** 1.5 -> "1,5" in Spanish: a number with decimals as the reader writes it, without digit groups. */
function decimalText(value: number, lang: Language): string {
  let format = decimalFormats.get(lang);
  if (!format) {
    format = new Intl.NumberFormat(localeOf(lang), { useGrouping: false, maximumFractionDigits: 2 });
    decimalFormats.set(lang, format);
  }
  return format.format(value);
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

/** The values of a fill that belong to the form's own fields: a form without the field gets nothing. */
export function onlyFields(fields: readonly FieldDef[], values: Draft): Draft {
  const keys = new Set(fields.map((f) => f.key));
  return Object.fromEntries(Object.entries(values).filter(([key]) => keys.has(key)));
}

/**
 * Values suggested by what an upload's file tells (a package's platform and version): each goes
 * into a field of the form that is still empty, and a choice only when it is one of the field's
 * options. What the administrator typed is never replaced.
 */
export function fillEmpty(fields: readonly FieldDef[], draft: Draft, values: Draft): Draft {
  const out: Draft = {};
  for (const [key, value] of Object.entries(values)) {
    const field = fields.find((f) => f.key === key);
    if (!field || (draft[key] !== undefined && draft[key] !== '')) continue;
    if (field.kind === 'select' && !(field.options ?? []).includes(String(value))) continue;
    out[key] = value;
  }
  return out;
}
