import type { FastifyRequest } from 'fastify';
import { CALLS, GATEWAY_PATHS, resourceCalls, type Resource } from '../contract/index.js';
import type { AuditActor, AuditKind, AuditRecord } from '../contract/audit.js';
import { pathOf } from '../lib/request-path.js';
import type { Session } from '../session/plugin.js';
import { canonical } from './chain.js';
import {
  editableKeys,
  inputsOf,
  knownCall,
  reasonOf,
  recordOfDetail,
  secretFieldsOf,
  STATE_CHANGING_GETS,
  targetsOf,
  type KnownCall,
} from './describe.js';
import { boundedText, boundedValue, isSecretName, recordOf } from './redact.js';

/**
 * What the recorder knows of a call before it goes on: who makes it, what the contract calls it,
 * which records it names, and, for a record's edit or a settings save, what to read first so the
 * entry can say what the values were before.
 */
export interface Plan {
  kind: AuditKind;
  actor: AuditActor;
  method: string;
  path: string;
  resource: string | null;
  call: string | null;
  action: string | null;
  targets: string[];
  reason: string | null;
  inputs?: AuditRecord;
  after?: AuditRecord;
  before?: AuditRecord | null;
  /** The records' names, by id, from the read before the change. */
  names?: Record<string, string>;
  /** The contract GET that tells the values before the change, read before the call goes on. */
  read?: {
    resource: Resource;
    path: string;
    query: Record<string, string>;
    sent: Record<string, unknown>;
    keys: string[];
  };
}

export function actorOf(session: Session | null): AuditActor {
  return { userId: session?.userId ?? null, account: session?.account ?? null };
}

/** The call's input as the recorder reads it: a GET's query, another method's JSON body. */
function inputOf(request: FastifyRequest): Record<string, unknown> {
  let source: unknown = request.method === 'GET' ? request.query : request.body;
  if (typeof source === 'string') {
    try {
      source = JSON.parse(source);
    } catch {
      return {};
    }
  }
  return typeof source === 'object' && source !== null && !Array.isArray(source) && !Buffer.isBuffer(source)
    ? (source as Record<string, unknown>)
    : {};
}

function pick(input: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (Object.hasOwn(input, key)) out[key] = input[key];
  return out;
}

/**
 * The records a change names in the body as it finally left: dual control replaces a held call's
 * body with its judged spelling (`" +04"` sent as 4) after the plan was made, and the trail names
 * the ids the backend was sent.
 */
export function sentTargets(request: FastifyRequest): string[] {
  return targetsOf(inputOf(request));
}

/** Whether a request is one the trail records, without reading anything: the cheap test every request passes. */
export function isAudited(method: string, path: string): boolean {
  if (method === 'GET') return STATE_CHANGING_GETS.has(path);
  if (method === 'HEAD' || method === 'OPTIONS') return false;
  return path.startsWith('/manage/') || path === GATEWAY_PATHS.logout;
}

/** The plan of a call the trail records, or null for any other. */
export function planOf(request: FastifyRequest): Plan | null {
  const method = request.method;
  const path = pathOf(request.url);
  if (!isAudited(method, path)) return null;
  const base = { method, path, targets: [] as string[], reason: null, resource: null, call: null };
  if (path === GATEWAY_PATHS.logout) {
    return request.session ? { ...base, kind: 'logout', action: 'logout', actor: actorOf(request.session) } : null;
  }
  if (path === CALLS.login) {
    if (method !== 'POST') return null;
    const account = inputOf(request).account;
    // Never the password nor the code: only who tried.
    return {
      ...base,
      kind: 'login',
      action: 'login',
      actor: { userId: null, account: typeof account === 'string' ? account.trim().slice(0, 256) : null },
    };
  }
  // A call without a session the gateway vouches for never reached the backend.
  if (!request.session) return null;
  const input = inputOf(request);
  const known = knownCall(method, path);
  const plan: Plan = {
    ...base,
    kind: 'change',
    actor: actorOf(request.session),
    resource: known?.resourceId ?? null,
    call: known?.call ?? null,
    action: known?.action ?? null,
    targets: targetsOf(input),
    reason: reasonOf(input),
  };
  if (known) describeKnown(plan, known, input);
  return plan;
}

function describeKnown(plan: Plan, known: KnownCall, input: Record<string, unknown>): void {
  const { resource } = known;
  const secrets = secretFieldsOf(resource, known.actionDef);
  if (known.call === 'save' && resource) {
    const update = plan.targets.length > 0;
    plan.action = update ? 'update' : 'create';
    const keys = editableKeys(resource, update ? 'edit' : 'create');
    const sent = pick(input, keys);
    plan.after = recordOf(sent, secrets);
    if (update && resource.kind === 'list' && resource.detail) {
      plan.read = { resource, path: resourceCalls(resource).detail, query: { id: plan.targets[0]! }, sent, keys };
    }
    return;
  }
  if (known.call === 'config' && resource) {
    const keys = editableKeys(resource, 'edit');
    const sent = pick(input, keys);
    plan.after = recordOf(sent, secrets);
    plan.read = { resource, path: resourceCalls(resource).config, query: {}, sent, keys };
    return;
  }
  if (known.call === 'delete') return;
  const inputs = inputsOf(input, secrets);
  if (inputs) plan.inputs = inputs;
  const sets = known.actionDef?.sets;
  if (sets && resource?.kind === 'list') {
    plan.after = { ...sets };
    // One record's values before: one read, as an edit costs. Over a selection, the values set only.
    if (plan.targets.length === 1) {
      const calls = resourceCalls(resource);
      plan.read = resource.detail
        ? { resource, path: calls.detail, query: { id: plan.targets[0]! }, sent: { ...sets }, keys: Object.keys(sets) }
        : { resource, path: calls.list, query: { id: plan.targets[0]! }, sent: { ...sets }, keys: Object.keys(sets) };
    }
  }
}

/** The record a read before a change answered: a detail's record, a settings object, or the one row of `list?id=`. */
function recordRead(read: NonNullable<Plan['read']>, answered: unknown): Record<string, unknown> | null {
  if (read.resource.kind === 'settings') return answered as Record<string, unknown> | null;
  if (read.path === resourceCalls(read.resource).list) {
    const list = (answered as { list?: unknown } | null)?.list;
    const row = Array.isArray(list) ? (list[0] as unknown) : null;
    return row && typeof row === 'object' ? (row as Record<string, unknown>) : null;
  }
  return recordOfDetail(read.resource, answered);
}

/** What a record read before a change is called: its resource's naming field (`recordFields`' first), as text. */
export function namesOf(plan: Plan, answered: unknown): Record<string, string> | undefined {
  const read = plan.read;
  if (!read || read.resource.kind !== 'list' || plan.targets.length !== 1) return undefined;
  const field = read.resource.recordFields?.[0];
  const record = recordRead(read, answered);
  const name = field && record ? record[field] : undefined;
  if ((typeof name !== 'string' || name.trim() === '') && typeof name !== 'number') return undefined;
  return { [plan.targets[0]!]: boundedText(String(name).trim(), 200) };
}

/**
 * Before and after of an edit: only the values the call changes, each as it was and as it was
 * sent. A secret that was sent counts as changed and shows as `[changed]` on the after side, never
 * as itself; the backend answers secrets empty, so the before side never has one.
 */
export function changes(
  plan: Plan,
  answered: unknown,
  secrets: ReadonlySet<string>,
): { before: AuditRecord | null; after: AuditRecord } | null {
  const read = plan.read;
  if (!read) return null;
  const after = recordOf(read.sent, secrets);
  const record = recordRead(read, answered);
  if (!record || typeof record !== 'object') return { before: null, after };
  const before: AuditRecord = {};
  const changed: AuditRecord = {};
  for (const key of Object.keys(after)) {
    if (isSecretName(key, secrets)) {
      changed[key] = after[key]!;
      continue;
    }
    const old = boundedValue(record[key], secrets) ?? null;
    if (canonical(old) === canonical(after[key])) continue;
    before[key] = old;
    changed[key] = after[key]!;
  }
  return { before, after: changed };
}
