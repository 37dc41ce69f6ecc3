import type { FieldDef, Resource } from '../contract/index.js';

/**
 * Whether an answer has the shape a screen expects: the contract's fields present with values of
 * the right type. Each finding is a short phrase for the probe's report.
 */

type Row = Record<string, unknown>;

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function fits(field: Pick<FieldDef, 'kind' | 'options'>, value: unknown): boolean {
  if (value === null || value === undefined) return true;
  switch (field.kind) {
    case 'number':
    case 'money':
      return typeof value === 'number' && Number.isFinite(value);
    case 'bytes':
      return typeof value === 'number' && Number.isInteger(value) && value >= 0;
    case 'switch':
      return typeof value === 'boolean';
    case 'select':
      return typeof value === 'string' && (!field.options || field.options.includes(value));
    case 'datetime':
      return typeof value === 'string' && (value === '' || ISO_TIME.test(value));
    case 'date':
      return typeof value === 'string' && (value === '' || DAY.test(value));
    case 'lines':
      return Array.isArray(value) || typeof value === 'string';
    default:
      return typeof value === 'string' || typeof value === 'number';
  }
}

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 24 ? `${text.slice(0, 23)}…` : text;
}

/** What a record lacks or holds in the wrong type, against the given fields. */
export function recordFindings(fields: readonly Pick<FieldDef, 'key' | 'kind' | 'options'>[], row: Row): string[] {
  const absent: string[] = [];
  const wrong: string[] = [];
  for (const field of fields) {
    if (!Object.hasOwn(row, field.key)) absent.push(field.key);
    else if (!fits(field, row[field.key])) wrong.push(`${field.key} (${field.kind}) is ${describe(row[field.key])}`);
  }
  const out: string[] = [];
  if (absent.length) out.push(`expected fields absent: ${absent.join(', ')}`);
  if (wrong.length) out.push(`does not fit: ${wrong.join('; ')}`);
  return out;
}

/** The fields an answer of this resource carries (write-only and create-only ones never come back). */
export function answeredFields(
  resource: Resource,
  absent: ReadonlySet<string>,
): Pick<FieldDef, 'key' | 'kind' | 'options'>[] {
  const keep = (f: Pick<FieldDef, 'key' | 'kind' | 'options' | 'createOnly'>) =>
    f.kind !== 'password' && !f.createOnly && !absent.has(f.key);
  switch (resource.kind) {
    case 'list':
    case 'settings':
      return resource.fields.filter(keep);
    case 'statistics':
      return [{ key: 'date', kind: 'date' as const }, ...resource.series].filter(keep);
    case 'operation':
      return [];
  }
}

/** A list answer: {list: [...], total: number}. */
export function listFindings(data: unknown): string[] {
  if (typeof data !== 'object' || data === null) return [`the answer's data is ${describe(data)}, not {list, total}`];
  const { list, total } = data as Row;
  const out: string[] = [];
  if (!Array.isArray(list))
    out.push(`no list array in the answer (members: ${Object.keys(data).join(', ') || 'none'})`);
  if (typeof total !== 'number') out.push(`no numeric total (total is ${describe(total)})`);
  return out;
}

/**
 * What a map leaves untranslated of the withdrawal states dual control reads: a state the gateway
 * does not know counts as pending there (every large approval is held), so a map that names the
 * backend's state without translating each of the contract's states is flagged before it is used.
 * A state the backend writes in the contract's own words needs no table; its rows are checked as read.
 */
export function withdrawalStateFindings(
  state: { absent?: boolean; values?: Record<string, unknown> } | undefined,
  states: readonly string[],
): string[] {
  if (state?.absent) return ['the withdrawal state is absent: dual control holds every large approval'];
  if (!state?.values) return [];
  const missing = states.filter((s) => !Object.hasOwn(state.values!, s));
  return missing.length === 0
    ? []
    : [
        `withdrawal states untranslated: ${missing.join(', ')} (dual control counts a state it does not know as pending)`,
      ];
}
