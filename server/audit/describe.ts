import { CALLS, RESOURCES, formFields, type ActionDef, type FieldDef, type Resource } from '../contract/index.js';
import type { AuditRecord } from '../contract/audit.js';
import { consoleCalls } from '../backend-map/calls.js';
import { boundedText, recordOf } from './redact.js';

/**
 * What a call is, by the contract's names: which resource, which of its calls, which action, and
 * which records. The contract is the one table of paths, so a call is named the same whether it
 * went through the proxy or a backend map, and whatever the backend calls it.
 */

export interface KnownCall {
  resource: Resource | null;
  /** The audit entry's resource id (a contract resource, or `deployment` for its own calls). */
  resourceId: string;
  /** save, delete, config, action, run, or an own call's name. */
  call: string;
  /** Fixed for most calls; a save is create or update by its body (null here). */
  action: string | null;
  /** The action's declaration, for its inputs' kinds. */
  actionDef: ActionDef | null;
}

/** GET calls of the chat backend that change something: audited as the other methods are. */
export const STATE_CHANGING_GETS: ReadonlySet<string> = new Set([CALLS.syncCashWithdrawal]);

/** The deployment screens' calls that change something, by their own names. */
const OWN_CHANGING_CALLS = [
  'importDatabase',
  'runnerSetMoment',
  'runnerSetWallet',
  'runnerSetMomentPublic',
  'runnerSetAutomaticRegister',
  'runnerSaveConfig',
] as const;

function buildTable(): Map<string, KnownCall> {
  const table = new Map<string, KnownCall>();
  for (const resource of RESOURCES) {
    for (const call of consoleCalls(resource)) {
      if (call.method === 'GET') continue;
      const key = `${call.method} ${call.path}`;
      if (call.kind === 'save')
        table.set(key, { resource, resourceId: resource.id, call: 'save', action: null, actionDef: null });
      else if (call.kind === 'delete')
        table.set(key, { resource, resourceId: resource.id, call: 'delete', action: 'delete', actionDef: null });
      else if (call.kind === 'saveConfig')
        table.set(key, { resource, resourceId: resource.id, call: 'config', action: 'saveConfig', actionDef: null });
      else if (call.kind === 'action') {
        const name = call.action!;
        const actionDef = 'actions' in resource ? (resource.actions?.find((a) => a.name === name) ?? null) : null;
        const run = resource.kind === 'operation' && resource.run === name;
        table.set(key, { resource, resourceId: resource.id, call: run ? 'run' : 'action', action: name, actionDef });
      }
    }
  }
  for (const name of OWN_CHANGING_CALLS) {
    table.set(`POST ${CALLS[name]}`, {
      resource: null,
      resourceId: 'deployment',
      call: name,
      action: name,
      actionDef: null,
    });
  }
  // The chat backend's own form of the review screen's sync action.
  const review = RESOURCES.find((r) => r.id === 'withdrawalReview') ?? null;
  table.set(`GET ${CALLS.syncCashWithdrawal}`, {
    resource: review,
    resourceId: 'withdrawalReview',
    call: 'action',
    action: 'syncCashWithdrawal',
    actionDef: null,
  });
  return table;
}

const TABLE = buildTable();

export function knownCall(method: string, path: string): KnownCall | null {
  return TABLE.get(`${method} ${path}`) ?? null;
}

/** Fields of a resource whose values are secrets: never recorded. */
export function secretFieldsOf(resource: Resource | null, action: ActionDef | null = null): Set<string> {
  const fields: readonly FieldDef[] = [
    ...(resource && 'fields' in resource ? resource.fields : []),
    ...(resource && resource.kind === 'operation' ? resource.inputs : []),
    ...(action?.inputs ?? []),
  ];
  return new Set(fields.filter((f) => f.kind === 'password').map((f) => f.key));
}

const MAX_TARGETS = 1_000;

function idText(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && value !== '' && value.length <= 128) return value;
  return null;
}

/** The record ids a body or query names: `id`, and `ids` (a list, or text joined by commas). */
export function targetsOf(input: Record<string, unknown>): string[] {
  const out: string[] = [];
  const one = idText(input.id);
  if (one !== null) out.push(one);
  const ids = input.ids;
  const list = Array.isArray(ids) ? ids : typeof ids === 'string' ? ids.split(',') : [];
  for (const item of list) {
    const id = idText(typeof item === 'string' ? item.trim() : item);
    if (id !== null && out.length < MAX_TARGETS) out.push(id);
  }
  return out;
}

export function reasonOf(input: Record<string, unknown>): string | null {
  const reason = input.reason ?? input.remark;
  return typeof reason === 'string' && reason.trim() !== '' ? boundedText(reason.trim(), 1_000) : null;
}

/** An action's inputs beside its records and reason, secrets left out. */
export function inputsOf(input: Record<string, unknown>, secretFields: ReadonlySet<string>): AuditRecord | undefined {
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (key === 'id' || key === 'ids' || key === 'reason' || key === 'remark') continue;
    rest[key] = value;
  }
  const record = recordOf(rest, secretFields);
  return Object.keys(record).length > 0 ? record : undefined;
}

/** The fields a save or settings save may change, by the contract: what before and after compare. */
export function editableKeys(resource: Resource, mode: 'create' | 'edit'): string[] {
  if (resource.kind === 'list') return formFields(resource, mode).map((f) => f.key);
  if (resource.kind === 'settings') return resource.fields.filter((f) => !f.readOnly).map((f) => f.key);
  return [];
}

/** The record a detail answer is about: the answer itself, or its first object member ({user, wallet, ...}). */
export function recordOfDetail(resource: Resource, data: unknown): Record<string, unknown> | null {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return null;
  const obj = data as Record<string, unknown>;
  const fields = 'fields' in resource ? resource.fields : [];
  if (fields.some((f) => f.key in obj)) return obj;
  const inner = Object.values(obj).find((v) => v && typeof v === 'object' && !Array.isArray(v));
  return (inner as Record<string, unknown> | undefined) ?? null;
}
