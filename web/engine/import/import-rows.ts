import type { ActionDef, FieldDef, ListResource } from '#contract';
import type { Language } from '../../lib/language.js';
import type { CsvTable } from './csv-read.js';
import {
  isChoiceList,
  recordFromDraft,
  type Draft,
  type DraftValue,
  type FieldErrorCode,
} from '../form/form-values.js';
import type { ImportDecl } from '../shared/types.js';

/**
 * A CSV import declared on a list screen, before anything is sent: which columns it reads (the
 * resource's create fields, or the key and an action's inputs), how the file's columns are found
 * (a header of keys or labels, else the declared order), each row read and validated with the
 * forms' own rules, and rows naming the same record twice told apart. Pure, so it is unit-tested.
 */

/** At most this many rows per import: a larger list is split into files. */
export const IMPORT_MAX_ROWS = 5_000;

export interface ImportSpec {
  /** The file's columns, as the fields they fill, in the declared order. */
  columns: FieldDef[];
  /** The column that names a record: already there, the row is skipped. */
  key: FieldDef;
  /** Each row runs this action on the record its key names; null: each row is created. */
  action: ActionDef | null;
}

/** The spec of a declaration on a resource as its backend offers it; null when the call it needs is not offered. */
export function importSpec(resource: ListResource, decl: ImportDecl): ImportSpec | null {
  const action = decl.action
    ? (resource.actions ?? []).find((a) => a.name === decl.action && a.target === 'row')
    : null;
  if (decl.action ? !action : !resource.create) return null;
  const own = (key: string): FieldDef | undefined => {
    const field = (action?.inputs ?? []).find((f) => f.key === key) ?? resource.fields.find((f) => f.key === key);
    if (!field) return undefined;
    // The key column is always needed, even when the list shows it read-only (a user's account).
    return key === decl.key ? { ...field, readOnly: false, required: true } : field;
  };
  const columns = decl.columns.map(own).filter((f): f is FieldDef => f !== undefined);
  const key = columns.find((f) => f.key === decl.key);
  if (!key) return null;
  return { columns, key, action: action ?? null };
}

/** Two values name the same record when they read the same: width, case and surrounding spaces aside. */
export function foldKey(value: unknown): string {
  return String(value ?? '')
    .normalize('NFKC')
    .trim()
    .toLocaleLowerCase();
}

export interface HeaderMatch {
  /** Column key to the file's column index. */
  indexes: Map<string, number>;
  /** The first record is a header (and not imported). */
  header: boolean;
  /** Header cells that name no column. */
  ignored: string[];
  /** Required columns the file lacks: nothing can be imported. */
  missing: FieldDef[];
}

/**
 * The file's columns. A first record naming at least one column (by key or by `namesOf`, the
 * labels in the reader's language) is a header; otherwise the columns are in the declared order.
 */
export function matchHeader(
  first: readonly string[],
  columns: readonly FieldDef[],
  namesOf: (field: FieldDef) => readonly string[],
): HeaderMatch {
  const names = new Map<string, string>();
  for (const field of columns) for (const name of [field.key, ...namesOf(field)]) names.set(foldKey(name), field.key);
  const indexes = new Map<string, number>();
  const ignored: string[] = [];
  first.forEach((cell, index) => {
    const key = names.get(foldKey(cell));
    if (key && !indexes.has(key)) indexes.set(key, index);
    else if (cell.trim() !== '') ignored.push(cell.trim());
  });
  if (indexes.size === 0) {
    const ordered = new Map(columns.map((f, i) => [f.key, i] as const).filter(([, i]) => i < first.length));
    return {
      indexes: ordered,
      header: false,
      ignored: [],
      missing: columns.filter((f) => f.required && !ordered.has(f.key)),
    };
  }
  return { indexes, header: true, ignored, missing: columns.filter((f) => f.required && !indexes.has(f.key)) };
}

export type RowStatus = 'ready' | 'invalid' | 'duplicate';

export interface ImportRow {
  line: number;
  /** The cells as the file wrote them, by column key. */
  cells: Record<string, string>;
  /** What would be sent. */
  values: Record<string, unknown>;
  status: RowStatus;
  problems: { field: string; code: FieldErrorCode }[];
  /** A duplicate's first line. */
  duplicateOf?: number;
}

/** What reading cells needs of the reader: their language (amounts, labels) and the option labels they may write. */
export interface CellContext {
  lang: Language;
  optionNames: (field: FieldDef, option: string) => readonly string[];
}

const TRUE = /^(1|true|yes|y|on|是|はい|sí|si|x|✓)$/i;
const FALSE = /^(0|false|no|n|off|否|いいえ|)$/i;

/** A spreadsheet export's guard against formulas (an apostrophe before `=`, `+`, `-`, `@`) is not part of the value. */
function undefused(text: string): string {
  return /^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text;
}

function option(field: FieldDef, text: string, ctx: CellContext): string {
  const folded = foldKey(text);
  return (
    (field.options ?? []).find(
      (o) => foldKey(o) === folded || ctx.optionNames(field, o).some((n) => foldKey(n) === folded),
    ) ?? text
  );
}

/** A date and time as spreadsheets write it (`2026-03-01 09:30`, `2026/3/1`, ISO 8601) in the form the date input reads. */
function dateTimeText(text: string): string {
  const m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  if (!m) return text;
  const p = (n: string | undefined, fallback = '00') => (n ?? fallback).padStart(2, '0');
  return `${m[1]}-${p(m[2])}-${p(m[3])}T${p(m[4])}:${p(m[5])}${m[6] ? `:${p(m[6])}` : ''}`;
}

/** One cell as a form's draft value, or the problem it has before any rule (a switch that says neither yes nor no). */
function draftOf(field: FieldDef, raw: string, ctx: CellContext): DraftValue | { code: FieldErrorCode } {
  const text = undefused(raw.trim());
  switch (field.kind) {
    case 'switch':
      return TRUE.test(text) ? true : FALSE.test(text) ? false : { code: 'notAnOption' };
    case 'select':
      return text === '' ? '' : option(field, text, ctx);
    case 'lines': {
      const items = text
        .split(/[|\n]/)
        .map((s) => s.trim())
        .filter(Boolean);
      return isChoiceList(field) ? items.map((s) => option(field, s, ctx)) : items.join('\n');
    }
    case 'datetime':
      return dateTimeText(text);
    default:
      return text;
  }
}

/** Every data record of the file read, validated, and checked for a record named twice. */
export function readRows(table: CsvTable, spec: ImportSpec, match: HeaderMatch, ctx: CellContext): ImportRow[] {
  const records = match.header ? table.records.slice(1) : table.records;
  const present = spec.columns.filter((f) => match.indexes.has(f.key));
  const firstLine = new Map<string, number>();
  return records.map((record) => {
    const cells: Record<string, string> = {};
    const draft: Draft = {};
    const problems: ImportRow['problems'] = [];
    for (const field of present) {
      const raw = record.cells[match.indexes.get(field.key)!] ?? '';
      cells[field.key] = raw;
      const value = draftOf(field, raw, ctx);
      if (typeof value === 'object' && !Array.isArray(value)) problems.push({ field: field.key, code: value.code });
      else draft[field.key] = value;
    }
    const checked = recordFromDraft(
      present.filter((f) => draft[f.key] !== undefined),
      draft,
      ctx.lang,
    );
    for (const field of present)
      if (checked.errors[field.key]) problems.push({ field: field.key, code: checked.errors[field.key]! });
    const row: ImportRow = {
      line: record.line,
      cells,
      values: checked.values,
      status: problems.length > 0 ? 'invalid' : 'ready',
      problems,
    };
    if (row.status === 'ready') {
      const key = foldKey(checked.values[spec.key.key]);
      const first = firstLine.get(key);
      if (first === undefined) firstLine.set(key, record.line);
      else Object.assign(row, { status: 'duplicate', duplicateOf: first });
    }
    return row;
  });
}

/** The template's text: the header row of the columns' keys, which every language reads back. */
export function templateHeader(spec: ImportSpec): string[] {
  return spec.columns.map((f) => f.key);
}
