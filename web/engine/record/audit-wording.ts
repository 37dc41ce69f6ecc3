import { RESOURCES, type FieldDef, type Resource } from '#contract';
import { AUDIT_SECRET_CHANGED, type AuditEntry, type AuditValue } from '#contract/audit';
import type { LabelKey, LabelT } from '../../i18n/resources/index.js';
import { actionLabel } from '../shared/labels.js';
import { valueText } from '../shared/value-cell.js';

/**
 * How an audit entry reads, in the reader's language: what was done, to which records, and each
 * value it changed. Shared by the audit trail screen and a record's history, and kept free of
 * markup so each sentence can be checked on its own.
 */

/** `loginAttempts`: outsiders' logins counted per address and window rather than written one by one. */
export const OWN_ACTIONS = [
  'create',
  'update',
  'delete',
  'saveConfig',
  'export',
  'login',
  'logout',
  'loginAttempts',
] as const;
const HELD_KINDS = ['hold', 'confirm', 'decline'] as const;

/** Whether the backend (or the gateway) refused the call. */
export function auditRefused(entry: Partial<Pick<AuditEntry, 'outcome'>>): boolean {
  const code = entry.outcome?.code;
  return code !== undefined && code !== null && code !== 200;
}

/** One action's name in words: the trail's own (create, login...) or the screen action's label. */
export function auditActionName(t: LabelT, action: string): string {
  const own = OWN_ACTIONS.find((a) => a === action);
  return own ? t(`audit.action.${own}` as LabelKey) : actionLabel(t, action);
}

/**
 * What an entry did: the action's own label, or the trail's words for its own calls and kinds. A
 * refused login did not log anyone in; a settings save held before the trail named it has no
 * action, and is still a settings save, never its path.
 */
export function auditActionText(
  t: LabelT,
  entry: Pick<AuditEntry, 'kind' | 'action' | 'path'> & Partial<Pick<AuditEntry, 'outcome'>>,
): string {
  const kind = HELD_KINDS.find((k) => k === entry.kind);
  const action = entry.action ?? (kind ? 'saveConfig' : null);
  const what =
    action === 'login' && auditRefused(entry)
      ? t('audit.action.loginFailed')
      : action
        ? auditActionName(t, action)
        : (entry.path ?? '');
  return kind ? `${t(`audit.kind.${kind}` as LabelKey)}: ${what}` : what;
}

/** Who did it: the account, else the user id. */
export function auditActorText(entry: Pick<AuditEntry, 'actor'>): string {
  return entry.actor.account ?? entry.actor.userId ?? '';
}

/** Each record an entry names: its name where the gateway read it, and its id. */
export function auditTargets(entry: Pick<AuditEntry, 'targets' | 'names'>): { id: string; name: string | null }[] {
  return entry.targets.map((id) => ({ id, name: entry.names?.[id] ?? null }));
}

/** Every action name the trail may hold, for its filter: the trail's own, then each screen action once. */
export function auditActionNames(): string[] {
  const names = new Set<string>(OWN_ACTIONS);
  for (const resource of RESOURCES) {
    if ('actions' in resource) for (const action of resource.actions ?? []) names.add(action.name);
    if (resource.kind === 'operation') names.add(resource.run);
  }
  return [...names];
}

function fieldOf(resource: Resource | null, key: string): Pick<FieldDef, 'key' | 'kind' | 'options' | 'resourceIds'> {
  const fields = resource && 'fields' in resource ? resource.fields : [];
  return fields.find((f) => f.key === key) ?? { key, kind: 'text' };
}

/** One value of a change as it reads: empty, not known and secret values in words, never as nothing. */
export function changeValueText(
  t: LabelT,
  resource: Resource | null,
  key: string,
  value: AuditValue | undefined,
): string {
  if (value === undefined) return t('history.unknown');
  if (value === null || (typeof value === 'string' && value.trim() === '')) return t('history.blank');
  if (value === AUDIT_SECRET_CHANGED) return t('history.secretChanged');
  const text = valueText(t, fieldOf(resource, key), value);
  return text.trim() === '' ? t('history.blank') : text;
}

/**
 * One changed value: what it was (absent when the entry has no before side, a create) and what it
 * became. Before and after are always words: "(empty) → Banned", never "→ Banned".
 */
export function changeTexts(
  t: LabelT,
  resource: Resource | null,
  key: string,
  before: Record<string, AuditValue> | null | undefined,
  after: Record<string, AuditValue>,
): { before?: string; after: string } {
  const now = changeValueText(t, resource, key, after[key]);
  if (before === undefined) return { after: now };
  return {
    before: before === null ? t('history.unknown') : changeValueText(t, resource, key, before[key] ?? null),
    after: now,
  };
}
