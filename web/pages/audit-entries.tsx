import { Fragment } from 'react';
import { RESOURCES } from '#contract';
import type { ApprovalChange } from '#contract/approvals';
import type { AuditEntry, AuditRecord, AuditValue } from '#contract/audit';
import type { TFunction } from '../i18n/index.js';
import type { LabelT } from '../i18n/resources/index.js';
import { formatDateTime } from '../lib/format.js';
import { language } from '../lib/settings.js';
import { resourceTitle } from '../engine/shared/labels.js';
import { LongValue } from '../engine/shared/long-value.js';
import { Changes } from '../engine/record/record-history.js';
import { auditActionText, auditActorText, auditRefused, auditTargets } from '../engine/record/audit-wording.js';
import { DataView, type DataColumn } from '../ui/data-table.js';

const RESOURCE_BY_ID = new Map(RESOURCES.map((r) => [r.id, r]));
/** Records a row names before it says "and N more". */
const TARGETS_SHOWN = 5;

export function resourceName(t: TFunction, lt: LabelT, id: string | null): string {
  if (!id) return '';
  if (id === 'deployment') return t('audit.resourceDeployment');
  if (id === 'audit') return t('audit.resourceAudit');
  return resourceTitle(lt, id);
}

function text(value: AuditValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A held settings save's changes ({key, before, after}) as the before and after an edit has. */
function heldChanges(detail: AuditRecord | undefined): { before: AuditRecord; after: AuditRecord } | null {
  const list = detail?.changes;
  if (!Array.isArray(list) || list.length === 0) return null;
  const before: AuditRecord = {};
  const after: AuditRecord = {};
  for (const item of list) {
    if (!item || typeof item !== 'object' || Array.isArray(item)) continue;
    const change = item as unknown as ApprovalChange;
    if (typeof change.key !== 'string') continue;
    before[change.key] = change.secret ? '' : ((change.before ?? null) as AuditValue);
    after[change.key] = change.secret ? '[changed]' : ((change.after ?? null) as AuditValue);
  }
  return { before, after };
}

/** Everything an entry holds beyond its row: the values it changed, then its facts, long ones shortened. */
function Details({ entry, t, lt }: { entry: AuditEntry; t: TFunction; lt: LabelT }) {
  const resource = entry.resource ? (RESOURCE_BY_ID.get(entry.resource) ?? null) : null;
  const held = heldChanges(entry.detail);
  const facts: [string, string][] = [
    [t('audit.path'), `${entry.method ?? ''} ${entry.path ?? ''}`.trim()],
    [t('audit.requestId'), entry.requestId ?? ''],
    [t('audit.ip'), entry.ip ?? ''],
    [t('audit.userId'), entry.actor.userId ?? ''],
    [
      t('audit.outcome'),
      entry.outcome
        ? `HTTP ${entry.outcome.status} · ${String(entry.outcome.code ?? '')}${entry.outcome.msg ? ` · ${entry.outcome.msg}` : ''}`
        : '',
    ],
    [t('audit.seq'), String(entry.seq)],
    [t('audit.hash'), entry.hash],
    [t('audit.prev'), entry.prev],
  ];
  if (entry.export) {
    facts.push([t('audit.rows'), String(entry.export.rows)]);
    facts.push([
      t('audit.exportFilters'),
      Object.entries(entry.export.filters)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(', ') || '—',
    ]);
  }
  for (const [key, value] of Object.entries(entry.inputs ?? {})) facts.push([key, text(value)]);
  for (const [key, value] of Object.entries(entry.detail ?? {}))
    if (!(held && key === 'changes')) facts.push([key, text(value)]);
  return (
    <div className="mt-2 flex min-w-0 flex-col gap-2" data-testid="audit-details">
      {entry.after && <Changes t={lt} resource={resource} before={entry.before} after={entry.after} />}
      {held && <Changes t={lt} resource={resource} before={held.before} after={held.after} />}
      <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-xs">
        {facts.map(([label, value]) => (
          <Fragment key={label}>
            <dt className="text-slate-500">{label}</dt>
            <dd className="min-w-0 font-mono text-slate-700">
              <LongValue value={value} t={lt} />
            </dd>
          </Fragment>
        ))}
      </dl>
    </div>
  );
}

interface EntriesProps {
  entries: readonly AuditEntry[];
  expanded: string | null;
  onToggle: (id: string) => void;
  /** Shows only this administrator's entries. */
  onActor: (actor: string) => void;
  t: TFunction;
  lt: LabelT;
}

/**
 * The trail in the console's one table, one card an entry on a phone, so nothing is cut off at the
 * screen's edge; every value that may be long (a reason, a record's name, a link in the details)
 * wraps or is shortened, so neither form is ever wider than the screen.
 */
export function AuditEntries({ entries, expanded, onToggle, onActor, t, lt }: EntriesProps) {
  const columns: DataColumn<AuditEntry>[] = [
    {
      key: 'time',
      header: t('audit.time'),
      rowHeader: true,
      wrap: 'none',
      cell: (e) => formatDateTime(e.time, language.value),
    },
    {
      key: 'actor',
      header: t('audit.actor'),
      wrap: 'anywhere',
      cell: (e) => {
        const actor = auditActorText(e);
        return actor ? (
          <button
            type="button"
            className="text-primary underline-offset-2 hover:underline"
            onClick={() => onActor(actor)}
            title={t('audit.onlyActor', { name: actor })}
          >
            {actor}
          </button>
        ) : null;
      },
    },
    {
      key: 'what',
      header: t('audit.what'),
      wrap: 'words',
      cell: (e) => (
        <>
          <span className="text-slate-500">{resourceName(t, lt, e.resource)}</span>
          {e.resource ? ' · ' : ''}
          <span className="font-medium text-slate-800">{auditActionText(lt, e)}</span>
        </>
      ),
    },
    {
      key: 'records',
      header: t('audit.records'),
      wrap: 'anywhere',
      cell: (e) => (
        <>
          {auditTargets(e)
            .slice(0, TARGETS_SHOWN)
            .map(({ id, name }, i) => (
              <Fragment key={id}>
                {i > 0 ? ', ' : ''}
                <span data-target={id}>
                  {name ?? id}
                  {name !== null && <span className="text-slate-500"> #{id}</span>}
                </span>
              </Fragment>
            ))}
          {e.targets.length > TARGETS_SHOWN ? ` ${t('audit.more', { count: e.targets.length - TARGETS_SHOWN })}` : ''}
        </>
      ),
    },
    {
      key: 'reason',
      header: t('audit.reason'),
      wrap: 'words',
      className: 'max-w-xs',
      cell: (e) => (e.reason ? <LongValue value={e.reason} t={lt} /> : ''),
    },
    {
      key: 'outcome',
      header: t('audit.outcome'),
      wrap: 'none',
      cell: (e) =>
        auditRefused(e) ? (
          <span className="text-red-700">
            {t('audit.refused')}
            {/* The code stays, for whoever looks it up; the words come first. */}
            <span className="block text-xs text-slate-500">
              {t('audit.code', { code: String(e.outcome?.code ?? '') })}
            </span>
          </span>
        ) : (
          <span className="text-green-700">{t('audit.ok')}</span>
        ),
    },
    {
      key: 'details',
      header: t('audit.details'),
      headerHidden: true,
      commands: true,
      cell: (e) => (
        <button
          type="button"
          className="btn px-2 py-0.5 text-xs"
          aria-expanded={expanded === e.id}
          onClick={() => onToggle(e.id)}
        >
          {t('audit.details')}
        </button>
      ),
    },
  ];
  return (
    <DataView
      columns={columns}
      rows={entries}
      rowKey={(e) => e.id}
      rowProps={(e) => ({ 'data-audit-seq': String(e.seq), 'data-audit-action': e.action ?? '' })}
      below={(e) => (expanded === e.id ? <Details entry={e} t={t} lt={lt} /> : null)}
      testId="audit-table"
      cardsTestId="audit-cards"
    />
  );
}
